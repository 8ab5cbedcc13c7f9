"""Claude Code adapter: golden output over the project's own transcripts, plus the behaviours it must show.

Goldens live in ``tests/harnesses/claude_code/expected/``; regenerate them (and review the diff) with:

    MORAINE_REGEN_GOLDENS=1 .venv/bin/pytest tests/harnesses/claude_code
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
from moraine.harnesses._shared.claude_format.adapter import ClaudeCodeAdapter
from moraine.harness_api.model import RawRecord

HERE = Path(__file__).parent
HOME = HERE / "home"

SESSION = "5f0c2a9e-1b7d-4c3e-9a8f-6d2e1c0b9a87"
PROJECT = HOME / ".claude/projects/-home-dev-shop"
MAIN = PROJECT / f"{SESSION}.jsonl"
SUBAGENT = PROJECT / SESSION / "subagents/agent-a1b2c3d.jsonl"
GOLDENS = {MAIN: "session", SUBAGENT: "subagent"}


def normalized(path: Path) -> list[dict[str, Any]]:
    items, _ = run_adapter(ClaudeCodeAdapter(), jsonl_records(path), path, "claude")
    return items


def run_records(records: list[Any], path: Path = Path("projects/p/s-1.jsonl")) -> list[dict[str, Any]]:
    raw = [RawRecord(data=data, line_no=i, offset=i * 100) for i, data in enumerate(records, start=1)]
    items, _ = run_adapter(ClaudeCodeAdapter(), raw, path, "claude")
    return items


def user(text: Any, uuid: str = "u", **fields: Any) -> dict[str, Any]:
    return {
        "type": "user",
        "sessionId": "s-1",
        "uuid": uuid,
        "message": {"role": "user", "content": text},
        **fields,
    }


def assistant(content: Any, stop: str | None, uuid: str = "a", **fields: Any) -> dict[str, Any]:
    message = {"role": "assistant", "model": "claude-opus-4-5", "content": content, "stop_reason": stop}
    return {"type": "assistant", "sessionId": "s-1", "uuid": uuid, "message": message, **fields}


@pytest.mark.parametrize("path", list(GOLDENS), ids=list(GOLDENS.values()))
def test_claude_code_transcript_matches_golden(path: Path) -> None:
    assert_golden(normalized(path), HERE / f"expected/{GOLDENS[path]}.golden.json")


def test_claude_code_adapter_is_registered_under_its_harness_name() -> None:
    adapter = adapter_for("claude-code")
    assert isinstance(adapter, ClaudeCodeAdapter)
    assert adapter.harness == "claude-code"


def test_only_real_user_text_starts_turns() -> None:
    starts = [e["text"] for e in events(normalized(MAIN)) if e["starts_turn"]]
    assert starts == [
        "Fix the coupon bug in cart totals; start with ledgerwidget.",
        "Add a test for expired coupons, like in this screenshot.",
        "Run the full suite.",
        "Check refunds too.",
    ]


def test_meta_messages_command_wrappers_and_compact_summaries_are_not_user_input() -> None:
    items = events(normalized(MAIN))
    meta = [
        (e["type"], e["provenance"].get("meta"), e["provenance"].get("wrapper"))
        for e in items
        if e["provenance"].get("uuid") in ("u-7", "u-8", "u-9")
    ]
    assert meta == [
        ("system", True, None),
        ("system", None, "<command-name>"),
        ("system", None, "<local-command-stdout>"),
    ]
    compactions = [
        (e["provenance"]["record_type"], e["provenance"].get("payload_type"))
        for e in items
        if e["type"] == "compaction"
    ]
    assert compactions == [
        ("summary", None),
        ("summary", None),
        ("system", "compact_boundary"),
        ("user", "compact_summary"),
    ]


def test_injected_context_blocks_before_the_prompt_leave_the_turn_to_the_prompt() -> None:
    content = [
        {"type": "text", "text": "<ide_opened_file>The user opened src/cart.py</ide_opened_file>"},
        {"type": "text", "text": "<system-reminder>Tests use uv.</system-reminder>"},
        {"type": "text", "text": "Why is this slow?"},
    ]
    items = events(run_records([user(content)]))
    assert [(e["type"], e["starts_turn"]) for e in items] == [
        ("system", False),
        ("system", False),
        ("user_input", True),
    ]


def test_tool_results_do_not_start_turns_and_carry_the_tool_name_error_and_exit_code() -> None:
    responses = {e["tool_call_id"]: e for e in events(normalized(MAIN)) if e["type"] == "tool_response"}
    status = {
        cid: (e["tool_name"], e["tool_error"], e["exit_code"], e["starts_turn"])
        for cid, e in responses.items()
    }
    assert status == {
        "toolu_bash_1": ("Bash", True, 1, False),
        "toolu_moraine_1": ("search_sessions", None, None, False),
        "toolu_web_1": ("WebSearch", None, None, False),
        "toolu_edit_1": ("Edit", None, None, False),
        "toolu_bash_2": ("Bash", False, 0, False),
        "toolu_read_1": ("Read", True, None, False),
        "toolu_task_1": ("Task", None, None, False),
        "toolu_sub_grep": ("Grep", None, None, False),  # the sub-agent's, read in after the Task's result
    }
    assert responses["toolu_moraine_1"]["text"] == "2 hits in earlier sessions"


def test_tool_use_keeps_structured_input_and_a_readable_rendering() -> None:
    calls = {e["tool_call_id"]: e for e in events(normalized(MAIN)) if e["type"] == "tool_call"}
    bash = calls["toolu_bash_1"]
    assert bash["arguments"] == {"command": "pytest -q tests/test_cart.py", "description": "Run cart tests"}
    assert bash["text"] == 'Bash(command="pytest -q tests/test_cart.py", description="Run cart tests")'
    assert (bash["content_format"], bash["model"]) == ("tool_call", "claude-opus-4-5-20251101")
    moraine = calls["toolu_moraine_1"]
    assert (moraine["tool_name"], moraine["is_moraine_tool"]) == ("search_sessions", True)
    assert moraine["provenance"]["original_tool_name"] == "mcp__moraine__search_sessions"
    assert moraine["text"] == 'search_sessions(query="coupon rounding", limit=5)'


def test_final_answers_and_terminal_events_follow_stop_reason_interrupts_and_turn_duration() -> None:
    items = events(normalized(MAIN))
    finals = [e["text"] for e in items if e["is_final_answer"]]
    assert finals == ["Fixed: coupons now apply before tax, and the cart tests pass.", "Checking refunds."]
    terminals = [(e["provenance"].get("uuid"), e["type"], e["terminal_kind"]) for e in items if e["terminal"]]
    assert terminals == [
        ("a-final-1", "assistant_response", "final_response"),
        ("s-1", "runtime", "final_response"),
        ("u-11", "runtime", "interrupted"),
        ("s-2", "runtime", "interrupted"),
        ("a-8", "system", "crashed"),
    ]
    text_before_tool = [e for e in items if e["text"] == "Let me run the cart tests first."]
    assert [(e["is_final_answer"], e["terminal"]) for e in text_before_tool] == [(False, False)]


@pytest.mark.parametrize(
    ("stop", "final", "terminal_kind"),
    [
        ("end_turn", True, "final_response"),
        ("stop_sequence", True, "final_response"),
        ("max_tokens", True, "stopped"),
        ("tool_use", False, None),
        ("pause_turn", True, None),
        (None, True, None),
    ],
)
def test_stop_reason_decides_final_answer_and_terminal(
    stop: str | None, final: bool, terminal_kind: str | None
) -> None:
    items = events(
        run_records(
            [assistant([{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "Done."}], stop)]
        )
    )
    answer = [e for e in items if e["type"] == "assistant_response"]
    assert [(e["is_final_answer"], e["terminal"], e["terminal_kind"]) for e in answer] == [
        (final, terminal_kind is not None, terminal_kind)
    ]


def test_a_message_that_stops_without_text_ends_the_turn_on_its_last_block() -> None:
    items = events(run_records([assistant([{"type": "thinking", "thinking": "hmm"}], "end_turn")]))
    assert [(e["type"], e["terminal"], e["is_final_answer"]) for e in items] == [("reasoning", True, False)]


def test_thinking_without_text_keeps_its_signature_as_encrypted_reasoning() -> None:
    items = events(
        run_records([assistant([{"type": "thinking", "thinking": "", "signature": "c2ln"}], "tool_use")])
    )
    assert [(e["type"], e["text"], e["encrypted"]) for e in items] == [("reasoning", "c2ln", True)]
    redacted = [
        e for e in events(normalized(MAIN)) if e["provenance"].get("payload_type") == "redacted_thinking"
    ]
    assert [(e["text"], e["encrypted"]) for e in redacted] == [("EmwKAhgBEgy-opaque-redacted==", True)]


def test_inline_sidechain_records_are_flagged_and_never_shape_the_main_turns() -> None:
    sidechain = [e for e in events(normalized(MAIN)) if e["sidechain"] and "agent_id" not in e["provenance"]]
    assert [(e["type"], e["starts_turn"], e["is_final_answer"], e["terminal"]) for e in sidechain] == [
        ("user_input", False, False, False),
        ("assistant_response", False, False, False),
    ]
    models = [i["model"] for i in normalized(MAIN) if i["item"] == "session_info" and i["model"]]
    assert models == ["claude-opus-4-5-20251101"]


def test_a_subagent_transcript_is_read_into_its_parent_after_the_task_result_not_as_a_session() -> None:
    assert normalized(SUBAGENT) == []  # its parent's transcript is there: the parent reads it
    found = events(normalized(MAIN))
    result = next(
        i for i, e in enumerate(found) if e["tool_call_id"] == "toolu_task_1" and e["type"] == "tool_response"
    )
    folded = [e for e in found if e["provenance"].get("agent_id") == "a1b2c3d"]
    assert found[result + 1 : result + 1 + len(folded)] == folded
    assert {(e["session"], e["provenance"]["parent_tool_call_id"]) for e in folded} == {
        (SESSION, "toolu_task_1")
    }
    flags = [
        (e["type"], e["starts_turn"], e["is_final_answer"], e["terminal"], e["sidechain"]) for e in folded
    ]
    assert flags == [
        ("user_input", False, False, False, True),
        ("tool_call", False, False, False, True),
        ("tool_response", False, False, False, True),
        ("assistant_response", False, False, False, True),
    ]


def test_titles_rank_custom_over_summary_over_ai_title() -> None:
    infos = [i for i in normalized(MAIN) if i["item"] == "session_info"]
    titles = [(i["line"], i["title"]) for i in infos if i["title"]]
    assert titles == [
        (4, "Fix cart coupon totals"),
        (19, "Coupon bug fix in cart totals"),
        (24, "Coupon fix"),
    ]
    assert [i["summary"] for i in infos if i["summary"]] == ["Coupon bug fix in cart totals"]


def test_a_summary_titles_the_session_whether_its_leaf_comes_before_or_after() -> None:
    after = run_records(
        [user("hi", uuid="leaf-1"), {"type": "summary", "summary": "Greeting", "leafUuid": "leaf-1"}]
    )
    before = run_records(
        [{"type": "summary", "summary": "Greeting", "leafUuid": "leaf-1"}, user("hi", uuid="leaf-1")]
    )
    elsewhere = run_records(
        [{"type": "summary", "summary": "Other", "leafUuid": "leaf-9"}, user("hi", uuid="leaf-1")]
    )
    for items in (after, before):
        assert [(i["session"], i["title"]) for i in items if i["item"] == "session_info" and i["title"]] == [
            ("s-1", "Greeting")
        ]
    assert [i for i in elsewhere if i["item"] == "session_info" and i["title"]] == []
    assert [e["type"] for e in events(elsewhere)] == ["compaction", "user_input"]


def test_session_metadata_reports_cwd_slug_model_and_first_user_message() -> None:
    infos = [i for i in normalized(MAIN) if i["item"] == "session_info"]
    assert {i["session"] for i in infos} == {SESSION}
    assert [i["cwd"] for i in infos if i["cwd"]] == ["/home/dev/shop"]
    assert [i["slug"] for i in infos if i["slug"]] == ["brave-otter"]
    assert [i["first_user_message"] for i in infos if i["first_user_message"]] == [
        "Fix the coupon bug in cart totals; start with ledgerwidget."
    ]
    assert infos[0]["started_at"] == "2026-03-06T14:00:01.007000+00:00"
    assert events(normalized(MAIN))[3]["provenance"]["git_branch"] == "main"


def test_every_record_kind_is_classified_not_dropped() -> None:
    kinds = {}
    for e in events(normalized(MAIN)):
        kinds.setdefault(e["provenance"]["record_type"], set()).add(e["type"])
    assert kinds == {
        "queue-operation": {"runtime"},
        "summary": {"compaction"},
        "user": {"user_input", "tool_response", "system", "runtime", "compaction"},
        "file-history-snapshot": {"system"},
        "assistant": {"reasoning", "assistant_response", "tool_call", "system"},
        "progress": {"system"},
        "system": {"runtime", "compaction"},
        "attachment": {"system"},
        "last-prompt": {"system"},
        "mystery-record": {"unknown"},
    }


def test_malformed_records_become_ingest_errors_and_the_file_goes_on() -> None:
    items = normalized(MAIN)
    errors = [(i["line"], i["reason"]) for i in items if i["item"] == "ingest_error"]
    assert errors == [
        (None, "malformed_json"),
        (45, "malformed_record"),
        (46, "invalid_field"),
        (47, "timestamp_parse_error"),
        (47, "invalid_field"),
        (47, "invalid_field"),
        (47, "invalid_field"),
        (48, "invalid_field"),
        (48, "invalid_field"),
    ]
    assert not [e for e in events(items) if e["line"] > 43]


def test_files_without_session_ids_fall_back_to_the_file_name() -> None:
    prompt = {
        "type": "user",
        "timestamp": "2026-01-01T00:00:00Z",
        "message": {"role": "user", "content": "hi"},
    }
    items = run_records([prompt], Path("p/abc.jsonl"))
    assert [(e["session"], e["timestamp"]) for e in events(items)] == [("abc", "2026-01-01T00:00:00+00:00")]


def _snapshot(message_id: str) -> dict[str, Any]:
    snapshot = {"messageId": message_id, "trackedFileBackups": {}, "timestamp": "2025-10-08T02:43:40.858Z"}
    return {
        "type": "file-history-snapshot",
        "messageId": message_id,
        "snapshot": snapshot,
        "isSnapshotUpdate": False,
    }


def test_a_file_of_summaries_and_snapshots_only_is_no_session() -> None:
    # Issue 44: such a real file listed as "Untitled ... in progress" with one turn.
    summary = {"type": "summary", "summary": "Earlier work", "leafUuid": "elsewhere-1"}
    items = run_records([summary, _snapshot("m1"), _snapshot("m2"), summary], Path("p/0f1e2d3c.jsonl"))
    assert items == []


def test_summaries_and_snapshots_before_the_conversation_join_its_session() -> None:
    summary = {"type": "summary", "summary": "Greeting", "leafUuid": "u1"}
    items = run_records([summary, _snapshot("u1"), user("hi", uuid="u1")], Path("p/0f1e2d3c.jsonl"))
    assert [(e["session"], e["type"]) for e in events(items)] == [
        ("s-1", "compaction"),
        ("s-1", "system"),
        ("s-1", "user_input"),
    ]
    assert [(i["session"], i["title"]) for i in items if i["item"] == "session_info" and i["title"]] == [
        ("s-1", "Greeting")
    ]


def test_a_record_nested_too_deep_is_an_ingest_error() -> None:
    deep = json.loads("[" * 900 + "]" * 900)
    items = run_records(
        [assistant([{"type": "tool_use", "id": "t", "name": "x", "input": deep}], "tool_use")]
    )
    assert [(i["item"], i["reason"]) for i in items] == [("ingest_error", "json_too_deep")]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=12,
)
_BLOCK_TYPES = st.sampled_from(["text", "thinking", "redacted_thinking", "tool_use", "tool_result", "image"])
_BLOCK_FIELDS = st.sampled_from(
    ["text", "thinking", "data", "id", "name", "input", "tool_use_id", "content", "is_error"]
)
_BLOCKS = st.builds(
    lambda kind, fields: {"type": kind, **fields}, _BLOCK_TYPES | _JSON, st.dictionaries(_BLOCK_FIELDS, _JSON)
)
_MESSAGES = st.fixed_dictionaries(
    {"content": st.lists(_BLOCKS | _JSON, max_size=4) | _JSON, "model": _JSON, "stop_reason": _JSON}
)
_RECORDS = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["user", "assistant", "system", "summary", "progress", "ai-title", "attachment"]
        )
        | _JSON,
        "sessionId": _JSON,
        "uuid": _JSON,
        "timestamp": _JSON,
        "message": _MESSAGES | _JSON,
    },
    optional={
        "isSidechain": _JSON,
        "isMeta": _JSON,
        "toolUseResult": _JSON,
        "leafUuid": _JSON,
        "summary": _JSON,
        "subtype": _JSON,
        "cwd": _JSON,
        "data": _JSON,
        "attachment": _JSON,
    },
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_RECORDS | _JSON, max_size=6))
def test_the_adapter_never_raises_on_wrong_types_in_any_field(records: list[Any]) -> None:
    adapter = ClaudeCodeAdapter()
    ctx = StreamContext(path=Path("projects/p/subagents/agent-x.jsonl"), source="claude")
    assert_normalizes_safely(adapter, ctx, records)


def test_a_session_id_changed_mid_conversation_leaves_the_answer_in_the_prompts_session() -> None:
    # Issue 44: the final answer carried a new sessionId and showed as turn 1 of another session.
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}
    result = [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]
    items = run_records(
        [
            user("Build it", uuid="u1", parentUuid=None),
            assistant([call], None, uuid="a1", parentUuid="u1"),
            user(result, uuid="u2", parentUuid="a1"),
            assistant(
                [{"type": "text", "text": "Built."}], None, uuid="a2", parentUuid="u2", sessionId="s-2"
            ),
            user("Now a new conversation", uuid="u3", parentUuid=None, sessionId="s-2"),
        ]
    )
    assert [(e["session"], e["type"]) for e in events(items)] == [
        ("s-1", "user_input"),
        ("s-1", "tool_call"),
        ("s-1", "tool_response"),
        ("s-1", "assistant_response"),
        ("s-2", "user_input"),
    ]
