"""Codex adapter: golden output over the project's own rollouts, plus the behaviours it must show.

Goldens live in ``tests/harnesses/codex/expected/``; regenerate them (and review the diff) with:

    MORAINE_REGEN_GOLDENS=1 .venv/bin/pytest tests/harnesses/codex
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.harnesses.run import assert_normalizes_safely
from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter
from hypothesis import given, settings
from hypothesis import strategies as st

from moraine.ingest.adapters import adapter_for
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.codex_format.adapter import CodexAdapter
from moraine.harness_api.model import RawRecord
from moraine.placeholders import ENCRYPTED_REASONING_PLACEHOLDER

HERE = Path(__file__).parent
HOME = HERE / "home"

SESSIONS = HOME / ".codex/sessions"
MODERN = SESSIONS / "2026/03/04/rollout-2026-03-04T10-00-00-0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"
LEGACY = SESSIONS / "2025/05/01/rollout-2025-05-01T09-00-00-01963e2f-5a6b-7c8d-9e0f-a1b2c3d4e5f6.jsonl"
EVENT_ONLY = SESSIONS / "2026/03/05/rollout-2026-03-05T08-00-00-0195b000-1111-7222-8333-944455556666.jsonl"
GOLDENS = {MODERN: "modern", LEGACY: "legacy", EVENT_ONLY: "event_only"}


def normalized(path: Path) -> list[dict[str, Any]]:
    items, _ = run_adapter(CodexAdapter(), jsonl_records(path), path, "codex")
    return items


def run_records(records: list[Any], name: str = "rollout-x.jsonl") -> list[dict[str, Any]]:
    raw = [RawRecord(data=data, line_no=i, offset=i * 100) for i, data in enumerate(records, start=1)]
    items, _ = run_adapter(CodexAdapter(), raw, Path(name), "codex")
    return items


@pytest.mark.parametrize("path", list(GOLDENS), ids=list(GOLDENS.values()))
def test_codex_rollout_matches_golden(path: Path) -> None:
    assert_golden(normalized(path), HERE / f"expected/{GOLDENS[path]}.golden.json")


def test_codex_adapter_is_registered_under_its_harness_name() -> None:
    adapter = adapter_for("codex")
    assert isinstance(adapter, CodexAdapter)
    assert adapter.harness == "codex"


def test_real_user_prompts_start_turns_and_injected_context_is_system() -> None:
    items = events(normalized(MODERN))
    starts = [e["text"] for e in items if e["starts_turn"]]
    assert starts == [
        "Why does the cart total ignore coupons? Look at ledgerwidget first.",
        "Now add a test for expired coupons.",
        "Finish the expired coupon test.",
    ]
    injected = [e["provenance"]["injected"] for e in items if "injected" in e["provenance"]]
    assert injected == ["# AGENTS.md instructions", "<environment_context>", "<turn_aborted>"]
    assert all(e["type"] == "system" and not e["starts_turn"] for e in items if "injected" in e["provenance"])
    developer = [e for e in items if e["provenance"].get("role") == "developer"]
    assert [e["type"] for e in developer] == ["system"]


def test_a_message_typed_while_the_task_runs_is_user_input_without_a_new_turn() -> None:
    steering = [e for e in events(normalized(MODERN)) if e["text"] == "Use freezegun for the clock."]
    assert [(e["type"], e["starts_turn"]) for e in steering] == [("user_input", False)]


def test_event_msg_mirrors_are_dropped_when_response_items_exist() -> None:
    items = events(normalized(MODERN))
    texts = [e["text"] for e in items if e["type"] in ("user_input", "assistant_response")]
    assert texts.count("Fixed: totals now apply coupons before tax.") == 1
    assert texts.count("Why does the cart total ignore coupons? Look at ledgerwidget first.") == 1
    assert not [
        e for e in items if e["provenance"].get("record_type") == "event_msg" and e["type"] == "reasoning"
    ]
    assert all(e["provenance"]["record_type"] == "response_item" for e in items if e["type"] == "user_input")


def test_event_only_rollout_keeps_the_event_forms_and_drops_a_later_response_item_repeat() -> None:
    items = events(normalized(EVENT_ONLY))
    kinds = [(e["type"], e["text"], e["starts_turn"]) for e in items if e["type"] != "system"]
    assert kinds == [
        ("user_input", "Summarize notes.md in one line.", True),
        ("reasoning", "Read the file, then summarize.", False),
        ("assistant_response", "notes.md lists three release blockers.", False),
        ("runtime", "task complete", False),
        ("user_input", "Thanks!", True),
        ("assistant_response", "You're welcome.", False),
    ]
    thanks = [e for e in items if e["text"] == "Thanks!"]
    assert [e["provenance"]["record_type"] for e in thanks] == ["event_msg"]
    environment = [e for e in items if e["provenance"].get("injected") == "environment_context"]
    assert [e["type"] for e in environment] == ["system"]


def test_whichever_form_comes_first_is_emitted_once() -> None:
    message = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}
    event_first = run_records(
        [
            {
                "timestamp": "2026-01-01T00:00:00Z",
                "type": "event_msg",
                "payload": {"type": "agent_message", "message": "Done."},
            },
            {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": message},
        ]
    )
    item_first = run_records(
        [
            {"timestamp": "2026-01-01T00:00:00Z", "type": "response_item", "payload": message},
            {
                "timestamp": "2026-01-01T00:00:01Z",
                "type": "event_msg",
                "payload": {"type": "agent_message", "message": "Done."},
            },
        ]
    )
    assert [(e["line"], e["text"]) for e in events(event_first)] == [(1, "Done.")]
    assert [(e["line"], e["text"]) for e in events(item_first)] == [(1, "Done.")]


def test_final_answer_phase_and_phaseless_messages_are_candidates_but_commentary_is_not() -> None:
    modern = [
        (e["text"], e["is_final_answer"])
        for e in events(normalized(MODERN))
        if e["type"] == "assistant_response"
    ]
    assert modern == [
        ("I'll look at the cart code first.", False),
        ("Fixed: totals now apply coupons before tax.", True),
        ("Writing the test with freezegun.", False),
        ("The test passes; still checking edge cases.", False),
    ]
    legacy = [
        (e["text"], e["is_final_answer"])
        for e in events(normalized(LEGACY))
        if e["type"] == "assistant_response"
    ]
    assert legacy == [("src has cart.py and ledger.py.", True)]


def test_task_complete_and_turn_aborted_are_the_terminal_events() -> None:
    terminals = [
        (e["provenance"]["payload_type"], e["terminal_kind"])
        for e in events(normalized(MODERN))
        if e["terminal"]
    ]
    assert terminals == [("task_complete", "final_response"), ("turn_aborted", "interrupted")]


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("interrupted", "interrupted"),
        ("replaced", "cancelled"),
        ("review_ended", "stopped"),
        ("gone", "cancelled"),
    ],
)
def test_turn_aborted_reason_sets_the_terminal_kind(reason: str, kind: str) -> None:
    items = run_records([{"type": "event_msg", "payload": {"type": "turn_aborted", "reason": reason}}])
    assert [(e["terminal"], e["terminal_kind"]) for e in events(items)] == [(True, kind)]


def test_tool_calls_keep_structured_arguments_and_a_readable_rendering() -> None:
    calls = {e["tool_call_id"]: e for e in events(normalized(MODERN)) if e["type"] == "tool_call"}
    exec_call = calls["call_exec_1"]
    assert exec_call["arguments"] == {"cmd": 'rg -n "coupon" src/cart.py', "workdir": "/home/dev/shop"}
    assert exec_call["text"] == 'exec_command(cmd="rg -n \\"coupon\\" src/cart.py", workdir="/home/dev/shop")'
    assert exec_call["content_format"] == "tool_call"
    assert exec_call["model"] == "gpt-5.3-codex"
    assert calls["call_patch_1"]["arguments"].startswith("*** Begin Patch")
    assert calls["call_local_1"]["tool_name"] == "local_shell"
    web = [e for e in events(normalized(MODERN)) if e["tool_name"] == "web_search"]
    assert [(e["text"], e["arguments"]) for e in web] == [
        (
            'web_search(query="python decimal rounding coupons")',
            {"type": "search", "query": "python decimal rounding coupons"},
        )
    ]


def test_tool_responses_carry_tool_name_and_exit_status_from_each_output_format() -> None:
    responses = {e["tool_call_id"]: e for e in events(normalized(MODERN)) if e["type"] == "tool_response"}
    status = {cid: (e["tool_name"], e["exit_code"], e["tool_error"]) for cid, e in responses.items()}
    assert status == {
        "call_exec_1": ("exec_command", 0, False),
        "call_shell_1": ("shell", 1, True),
        "call_patch_1": ("apply_patch", 0, False),
        "call_moraine_1": ("search_sessions", None, False),
        "call_local_1": ("local_shell", None, False),
    }
    assert responses["call_shell_1"]["text"] == "F.\n1 failed, 1 passed"


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ('{"output": "ok", "metadata": {"exit_code": 0}}', ("ok", 0, False)),
        (
            "Exit code: 2\nWall time: 1 seconds\nOutput:\nboom",
            ("Exit code: 2\nWall time: 1 seconds\nOutput:\nboom", 2, True),
        ),
        (
            "Process exited with code 127\nOutput:\nnot found",
            ("Process exited with code 127\nOutput:\nnot found", 127, True),
        ),
        (
            "plain text mentioning Exit code: 3 mid-line",
            ("plain text mentioning Exit code: 3 mid-line", None, None),
        ),
        ('{"output": "x", "metadata": {"exit_code": 99999999999}}', ("x", None, None)),
        ({"content": [{"type": "input_text", "text": "hi"}], "success": False}, ("hi", None, True)),
        (
            [{"type": "input_text", "text": "a"}, {"type": "input_image", "image_url": "data:"}],
            ("a\n[image]", None, None),
        ),
        (None, ("", None, None)),
    ],
)
def test_function_call_output_formats_are_read(
    output: Any, expected: tuple[str, int | None, bool | None]
) -> None:
    items = run_records(
        [
            {
                "type": "response_item",
                "payload": {"type": "function_call_output", "call_id": "c", "output": output},
            }
        ]
    )
    assert [(e["text"], e["exit_code"], e["tool_error"]) for e in events(items)] == [expected]


def test_moraine_tools_are_canonical_with_the_original_spelling_in_provenance() -> None:
    moraine = [e for e in events(normalized(MODERN)) if e["is_moraine_tool"]]
    assert [(e["type"], e["tool_name"], e["provenance"]["original_tool_name"]) for e in moraine] == [
        ("tool_call", "search_sessions", "mcp__moraine__search_sessions"),
        ("tool_response", "search_sessions", "mcp__moraine__search_sessions"),
    ]
    for spelling, canonical in [
        ("open", "open"),
        ("moraine__list_sessions", "list_sessions"),
        ("moraine.file_attention", "file_attention"),
    ]:
        items = run_records(
            [
                {
                    "type": "response_item",
                    "payload": {"type": "function_call", "name": spelling, "arguments": "{}"},
                }
            ]
        )
        assert [(e["tool_name"], e["is_moraine_tool"]) for e in events(items)] == [(canonical, True)]


def test_encrypted_reasoning_keeps_the_opaque_payload_and_the_readable_summary_aside() -> None:
    reasoning = [e for e in events(normalized(MODERN)) if e["type"] == "reasoning"]
    assert [(e["encrypted"], e["text"]) for e in reasoning] == [
        (True, "gAAAAB-opaque-reasoning-payload=="),
        (False, "Plan the expired coupon test."),
    ]
    assert reasoning[0]["provenance"]["summary_text"] == "**Inspecting cart module**"
    assert reasoning[0]["text"] != ENCRYPTED_REASONING_PLACEHOLDER


def test_session_id_model_cwd_and_first_user_message_are_reported() -> None:
    items = normalized(MODERN)
    infos = [i for i in items if i["item"] == "session_info"]
    assert {i["session"] for i in items if i["item"] != "ingest_error"} == {
        "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
    }
    assert [i["model"] for i in infos if i["model"]] == ["gpt-5.3-codex", "gpt-5.4-codex"]
    assert [i["cwd"] for i in infos if i["cwd"]] == ["/home/dev/shop", "/home/dev/shop/tests"]
    assert [i["first_user_message"] for i in infos if i["first_user_message"]] == [
        "Why does the cart total ignore coupons? Look at ledgerwidget first."
    ]
    assert infos[0]["started_at"] == "2026-03-04T10:00:00+00:00"
    assert all(i["title"] is None for i in infos)


def test_session_id_falls_back_to_the_file_name_uuid() -> None:
    assert {e["session"] for e in events(normalized(EVENT_ONLY))} == {"0195b000-1111-7222-8333-944455556666"}
    assert {e["session"] for e in events(normalized(LEGACY))} == {"01963e2f-5a6b-7c8d-9e0f-a1b2c3d4e5f6"}


def test_timestamps_are_aware_utc_or_null_with_an_error() -> None:
    items = run_records(
        [
            {
                "timestamp": "2026-03-04T12:00:00.123+02:00",
                "type": "event_msg",
                "payload": {"type": "task_started"},
            },
            {"timestamp": "2026-03-04T10:00:00.5", "type": "event_msg", "payload": {"type": "task_started"}},
            {"type": "event_msg", "payload": {"type": "task_started"}},
            {"timestamp": "soon", "type": "event_msg", "payload": {"type": "task_started"}},
        ]
    )
    assert [e["timestamp"] for e in events(items)] == [
        "2026-03-04T10:00:00.123000+00:00",
        "2026-03-04T10:00:00.500000+00:00",
        None,
        None,
    ]
    assert [i["reason"] for i in items if i["item"] == "ingest_error"] == ["timestamp_parse_error"]


def test_compaction_keeps_the_summary_and_counts_the_replacement_history() -> None:
    compactions = [e for e in events(normalized(MODERN)) if e["type"] == "compaction"]
    assert [(e["text"], e["provenance"]["replacement_items"]) for e in compactions] == [
        ("Summary: fixed coupons in the cart total; expired coupon test pending.", 2)
    ]
    items = run_records(
        [
            {
                "type": "compacted",
                "payload": {"replacement_history": [{"type": "message", "role": "user", "content": "hi"}]},
            }
        ]
    )
    assert [e["text"] for e in events(items)] == ["user: hi"]


def test_malformed_records_become_ingest_errors_and_the_file_goes_on() -> None:
    items = normalized(MODERN)
    errors = [(i["line"], i["reason"]) for i in items if i["item"] == "ingest_error"]
    assert errors == [
        (None, "malformed_json"),
        (38, "malformed_record"),
        (39, "malformed_record"),
        (40, "timestamp_parse_error"),
        (41, "invalid_field"),
        (44, "malformed_record"),
    ]
    assert max(e["line"] for e in events(items)) == 53
    unknown = [e["provenance"] for e in events(items) if e["type"] == "unknown"]
    assert unknown == [
        {"record_type": "response_item", "payload_type": "tool_search_call"},
        {"record_type": "mystery_record"},
    ]


def test_a_record_nested_too_deep_is_an_ingest_error_and_deep_arguments_stay_text() -> None:
    deep = "[" * 900 + "]" * 900
    items = run_records(
        [
            {"type": "response_item", "payload": {"type": "function_call", "name": "x", "arguments": deep}},
            {
                "type": "response_item",
                "payload": {"type": "function_call_output", "output": json.loads(deep)},
            },
        ]
    )
    assert [(i["item"], i.get("reason"), i.get("arguments")) for i in items] == [
        ("event", None, deep),
        ("ingest_error", "json_too_deep", None),
    ]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=12,
)
_FIELDS = st.sampled_from(
    [
        "role",
        "content",
        "name",
        "arguments",
        "call_id",
        "output",
        "message",
        "summary",
        "phase",
        "id",
        "action",
    ]
)
_PAYLOAD_TYPES = st.sampled_from(
    [
        "message",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "reasoning",
        "web_search_call",
        "user_message",
        "agent_message",
        "task_complete",
        "turn_aborted",
        "token_count",
    ]
)
_PAYLOADS = st.builds(
    lambda kind, fields: {"type": kind, **fields}, _PAYLOAD_TYPES | _JSON, st.dictionaries(_FIELDS, _JSON)
)
_RECORDS = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["session_meta", "turn_context", "response_item", "event_msg", "compacted"])
        | _JSON,
        "payload": _PAYLOADS | _JSON,
        "timestamp": _JSON,
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_RECORDS | _JSON, max_size=6))
def test_the_adapter_never_raises_on_wrong_types_in_any_field(records: list[Any]) -> None:
    adapter = CodexAdapter()
    ctx = StreamContext(path=Path("rollout.jsonl"), source="codex")
    assert_normalizes_safely(adapter, ctx, records)


def test_an_ide_wrapped_prompt_is_titled_and_turned_by_the_request_not_the_ide_context() -> None:
    # Issue 44: both real Codex IDE sessions were titled "# Context from my IDE setup:".
    prompt = (
        "# Context from my IDE setup:\n\n## Active file: src/login.ts\n\n## Open tabs:\n- login.ts: src/login.ts\n\n"
        "## My request for Codex:\nFix the redirect loop after login\n"
    )
    ts = "2026-02-23T12:41:05.000Z"
    meta = {"id": "019c8a4d-0000-7000-8000-000000000001", "cwd": "/repo", "originator": "codex_vscode"}
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}
    environment = {
        "type": "message",
        "role": "user",
        "content": [
            {
                "type": "input_text",
                "text": "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
            }
        ],
    }
    items = run_records(
        [
            {"timestamp": ts, "type": "session_meta", "payload": meta},
            {"timestamp": ts, "type": "response_item", "payload": environment},
            {"timestamp": ts, "type": "response_item", "payload": user},
            {
                "timestamp": ts,
                "type": "event_msg",
                "payload": {"type": "user_message", "message": prompt, "kind": "plain"},
            },
        ]
    )
    firsts = [
        i["first_user_message"] for i in items if i["item"] == "session_info" and i["first_user_message"]
    ]
    assert firsts == ["Fix the redirect loop after login"]
    said = [(e["type"], e["text"]) for e in events(items) if e["type"] in ("user_input", "system")]
    assert said[-2:] == [
        ("user_input", "Fix the redirect loop after login"),
        (
            "system",
            "# Context from my IDE setup:\n\n## Active file: src/login.ts\n\n## Open tabs:\n- login.ts: src/login.ts",
        ),
    ]
