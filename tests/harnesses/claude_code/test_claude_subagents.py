"""Claude Code sub-agent transcripts belong to their parent session (issue 44): shown in the turn whose Task call
started them, searchable, opened under the parent's IDs, and no session of their own.

The home copies the structure of a real one: a session transcript ``<project>/<session>.jsonl`` whose Task call's
``tool_result`` record names the agent in ``toolUseResult.agentId``, the sub-agent's ``agent-<id>.jsonl`` in the
session's ``subagents/`` folder (newer releases), and a background agent beside the transcript (2.0 releases) whose
end a ``queue-operation`` ``<task-notification>`` announces. Every sub-agent record carries the parent's
``sessionId`` and ``isSidechain: true``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fixtures.handler_data import list_data, open_data, search_data
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import list_request, open_request, search_request
from tests.harnesses.run import events, normalize_file

from moraine.harnesses._shared.claude_format.adapter import ClaudeCodeAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import SessionInfo

SESSION = "7d3e9a10-2b4c-4d5e-8f60-718293a4b5c6"
SECRET = "subagent-secret"


def _line(kind: str, uuid: str, parent: str | None, at: str, message: Any, **fields: Any) -> dict[str, Any]:
    base = {"parentUuid": parent, "isSidechain": False, "cwd": "/home/dev/mill", "sessionId": SESSION}
    return {
        **base,
        "version": "2.1.30",
        "type": kind,
        "uuid": uuid,
        "timestamp": at,
        "message": message,
        **fields,
    }


def _user(uuid: str, parent: str | None, at: str, content: Any, **fields: Any) -> dict[str, Any]:
    return _line("user", uuid, parent, at, {"role": "user", "content": content}, **fields)


def _assistant(uuid: str, parent: str, at: str, blocks: list[Any]) -> dict[str, Any]:
    message = {"role": "assistant", "model": "claude-opus-4-5", "content": blocks, "stop_reason": None}
    return _line("assistant", uuid, parent, at, message)


def _agent(agent: str, at: str, prompt: str, answer: str) -> list[dict[str, Any]]:
    grep = {"type": "tool_use", "id": f"toolu_{agent}_grep", "name": "Grep", "input": {"pattern": "spindle"}}
    result = {
        "type": "tool_result",
        "tool_use_id": f"toolu_{agent}_grep",
        "content": "mill.py:8: SPINDLE_RPM",
    }
    records = [
        _user(f"{agent}-1", None, f"{at}:01.000Z", prompt),
        _assistant(f"{agent}-2", f"{agent}-1", f"{at}:02.000Z", [grep]),
        _user(f"{agent}-3", f"{agent}-2", f"{at}:03.000Z", [result]),
        _assistant(f"{agent}-4", f"{agent}-3", f"{at}:04.000Z", [{"type": "text", "text": answer}]),
    ]
    return [{**r, "isSidechain": True, "agentId": agent} for r in records]


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _home(root: Path) -> Path:
    """Write the project folder: the session transcript and its two sub-agents; return the transcript."""
    project = root / ".claude" / "projects" / "-home-dev-mill"
    task = {
        "description": "find spindle",
        "prompt": "Find where the spindle speed is set.",
        "subagent_type": "Explore",
    }
    background = {"description": "scan feeds", "prompt": "Scan the feed rates.", "subagent_type": "Explore"}
    transcript = [
        _user("u1", None, "2026-03-06T09:00:00.000Z", "Why does the mill stall? millsubagentprompt"),
        _assistant(
            "a1",
            "u1",
            "2026-03-06T09:00:05.000Z",
            [{"type": "tool_use", "id": "toolu_task", "name": "Task", "input": task}],
        ),
        _user(
            "r1",
            "a1",
            "2026-03-06T09:01:00.000Z",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_task",
                    "content": [{"type": "text", "text": "RPM set in mill.py"}],
                }
            ],
            toolUseResult={"status": "completed", "agentId": "a5e1f00d", "totalDurationMs": 55000},
        ),
        _assistant(
            "a2",
            "r1",
            "2026-03-06T09:01:05.000Z",
            [{"type": "tool_use", "id": "toolu_bg", "name": "Task", "input": background}],
        ),
        _user(
            "r2",
            "a2",
            "2026-03-06T09:01:06.000Z",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_bg",
                    "content": "Async agent launched successfully.",
                }
            ],
            toolUseResult={"status": "async_launched", "agentId": "b6f2a11e"},
        ),
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "timestamp": "2026-03-06T09:03:00.000Z",
            "sessionId": SESSION,
            "content": "<task-notification>\n<task-id>b6f2a11e</task-id>\n<tool-use-id>toolu_bg</tool-use-id>\n"
            "<status>completed</status>\n<summary>Agent completed</summary>\n</task-notification>",
        },
        _assistant(
            "a3", "r2", "2026-03-06T09:03:05.000Z", [{"type": "text", "text": "The spindle RPM is too high."}]
        ),
        _user("u2", "a3", "2026-03-06T09:10:00.000Z", "Lower it then."),
        _assistant("a4", "u2", "2026-03-06T09:10:05.000Z", [{"type": "text", "text": "Lowered."}]),
    ]
    main = _write(project / f"{SESSION}.jsonl", transcript)
    found = "The speed is set in mill.py line 8. millsubagentfinding"
    _write(
        project / SESSION / "subagents" / "agent-a5e1f00d.jsonl",
        _agent("a5e1f00d", "2026-03-06T09:00", task["prompt"], found),
    )
    feeds = "Feeds are fine. millbackgroundfinding"
    _write(
        project / "agent-b6f2a11e.jsonl", _agent("b6f2a11e", "2026-03-06T09:02", background["prompt"], feeds)
    )
    return main


def test_the_parent_reads_each_finished_sub_agent_into_its_own_session_as_sidechain_events(
    tmp_path: Path,
) -> None:
    main = _home(tmp_path)
    items, _ = normalize_file(ClaudeCodeAdapter(), main, StreamContext(main, "claude"))
    found = events(items)
    assert {e.session for e in found} == {SESSION}
    agents = [e for e in found if e.provenance.get("agent_id")]
    assert [(e.provenance["agent_id"], e.type.value) for e in agents] == [
        (agent, kind)
        for agent in ("a5e1f00d", "b6f2a11e")
        for kind in ("user_input", "tool_call", "tool_response", "assistant_response")
    ]
    assert all(e.sidechain and not e.starts_turn and not e.terminal for e in agents)
    assert {e.provenance["parent_tool_call_id"] for e in agents} == {"toolu_task", "toolu_bg"}
    # Right after the Task's result, before the parent goes on.
    order = [e.provenance.get("agent_id") or e.tool_call_id or e.text[:12] for e in found]
    assert order.index("a5e1f00d") == order.index("toolu_task", order.index("toolu_task") + 1) + 1
    assert [e.text for e in found if e.starts_turn] == [
        "Why does the mill stall? millsubagentprompt",
        "Lower it then.",
    ]


def test_a_task_result_naming_no_agent_finds_its_sub_agent_by_the_prompt(tmp_path: Path) -> None:
    main = _home(tmp_path)
    records = [json.loads(line) for line in main.read_text(encoding="utf-8").splitlines()]
    del records[2]["toolUseResult"]  # an older release: the Task's result does not name the agent
    _write(main, records)
    items, _ = normalize_file(ClaudeCodeAdapter(), main, StreamContext(main, "claude"))
    folded = {e.provenance.get("agent_id") for e in events(items) if e.sidechain}
    assert folded == {"a5e1f00d", "b6f2a11e"}


def test_a_background_agent_whose_notification_names_no_call_is_tied_to_the_call_that_launched_it(
    tmp_path: Path,
) -> None:
    # Claude Code 2.1.15 writes <task-id> and <status> but no <tool-use-id> in its task notification.
    main = _home(tmp_path)
    text = main.read_text(encoding="utf-8").replace("<tool-use-id>toolu_bg</tool-use-id>\\n", "")
    assert "toolu_bg</tool-use-id>" not in text
    main.write_text(text, encoding="utf-8")
    items, _ = normalize_file(ClaudeCodeAdapter(), main, StreamContext(main, "claude"))
    background = [e for e in events(items) if e.provenance.get("agent_id") == "b6f2a11e"]
    assert len(background) == 4 and {e.provenance["parent_tool_call_id"] for e in background} == {"toolu_bg"}


def test_a_sub_agent_file_read_by_itself_is_no_session_while_its_parent_is_there(tmp_path: Path) -> None:
    main = _home(tmp_path)
    for agent in (
        main.parent / SESSION / "subagents" / "agent-a5e1f00d.jsonl",
        main.parent / "agent-b6f2a11e.jsonl",
    ):
        items, _ = normalize_file(ClaudeCodeAdapter(), agent, StreamContext(agent, "claude"))
        assert items == []


def test_an_orphan_sub_agent_file_stays_a_session_linked_to_its_parent(tmp_path: Path) -> None:
    main = _home(tmp_path)
    main.unlink()
    agent = main.parent / SESSION / "subagents" / "agent-a5e1f00d.jsonl"
    items, _ = normalize_file(ClaudeCodeAdapter(), agent, StreamContext(agent, "claude"))
    assert {e.session for e in events(items)} == {f"{SESSION}:a5e1f00d"}
    assert [i.parent_session for i in items if isinstance(i, SessionInfo) and i.parent_session] == [SESSION]


def test_a_home_with_sub_agents_lists_one_session_whose_task_turn_holds_them(
    store: Store, ingest_into_store: Any, tmp_path: Path
) -> None:
    main = _home(tmp_path)
    ingest_into_store([main.parent], source="claude")
    listing = list_data(
        store,
        list_request(
            SECRET, start_datetime="2026-01-01T00:00:00Z", end_datetime="2027-01-01T00:00:00Z", limit=20
        ),
        cursor_secret=SECRET,
    )
    assert len(listing["sessions"]) == 1
    session_id = listing["sessions"][0]["id"]
    hits = search_data(
        store, search_request(query="millsubagentfinding", n_hits=5), bm25=Bm25(), snippet_chars=200
    )
    [hit] = hits["results"]
    assert hit["session"]["id"] == session_id
    opened = open_data(store, open_request(SECRET, id=session_id, limit=50), cursor_secret=SECRET)
    assert len(opened["turns"]) == 2
    first = opened["turns"][0]
    assert hit["turn"]["id"] == first["id"] and hit["open"]["session_id"] == session_id
    turn = open_data(store, open_request(SECRET, id=first["id"], limit=50), cursor_secret=SECRET)
    assert "millsubagentfinding" in json.dumps(turn) and "millbackgroundfinding" in json.dumps(turn)
    assert first["final_response"]["text"].startswith("The spindle RPM is too high.")
