"""The 30-minute rule for every harness: a session nobody has written to for ``IDLE_MINUTES`` is not in progress,
whatever its last record was (issue 44: months-old Goose and Gemini sessions read "in progress").

The Goose session copies the structure of a Goose JSONL session file (metadata line, user/assistant messages with
typed content blocks); it ends on a tool response that nothing answered, as a session closed mid-turn does.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fixtures.handler_data import open_data, search_data
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import open_request, search_request

SECRET = "settled-secret"
_META = {"working_dir": "/home/dev/projects/loom", "description": "Loom tension", "message_count": 3}


def _goose_session(path: Path, created: int) -> Path:
    call = {"name": "developer__shell", "arguments": {"command": "pytest -q"}}
    messages = [
        {
            "id": "u1",
            "role": "user",
            "created": created,
            "content": [{"type": "text", "text": "Why does warpidle sag?"}],
        },
        {
            "id": "a1",
            "role": "assistant",
            "created": created + 5,
            "content": [
                {"type": "text", "text": "Let me run the tests."},
                {"type": "toolRequest", "id": "t1", "toolCall": {"status": "success", "value": call}},
            ],
        },
        {
            "id": "u2",
            "role": "user",
            "created": created + 9,
            "content": [
                {
                    "type": "toolResponse",
                    "id": "t1",
                    "toolResult": {"status": "success", "value": [{"type": "text", "text": "1 failed"}]},
                }
            ],
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in [_META, *messages]), encoding="utf-8")
    return path


def _opened(store: Store, keyword: str) -> dict[str, Any]:
    hits = search_data(store, search_request(query=keyword, n_hits=5), bm25=Bm25(), snippet_chars=200)[
        "results"
    ]
    assert hits, keyword
    session_id = hits[0]["session"]["id"]
    return open_data(store, open_request(SECRET, id=session_id, limit=50), cursor_secret=SECRET)


def test_a_months_old_session_cut_short_mid_turn_is_over_without_an_invented_answer(
    store: Store, ingest_into_store: Any, tmp_path: Path
) -> None:
    ingest_into_store([_goose_session(tmp_path / "20250301_1.jsonl", 1740823200)], source="goose")
    opened = _opened(store, "warpidle")
    assert opened["session"]["completed"] is True
    [turn] = opened["turns"]
    assert turn["completed"] is True
    assert turn["final_response"] is None
    turned = open_data(store, open_request(SECRET, id=turn["id"], limit=50), cursor_secret=SECRET)
    assert turn["terminal_event_id"] == turned["events"][-1]["id"]


def test_a_session_written_to_moments_ago_is_still_in_progress(
    store: Store, ingest_into_store: Any, tmp_path: Path
) -> None:
    now = int(datetime.now(UTC).timestamp()) - 20
    ingest_into_store([_goose_session(tmp_path / "20991231_1.jsonl", now)], source="goose")
    opened = _opened(store, "warpidle")
    assert opened["session"]["completed"] is False
    assert [t["completed"] for t in opened["turns"]] == [False]
    assert opened["turns"][0]["terminal_event_id"] is None
