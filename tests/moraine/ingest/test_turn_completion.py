"""Claude Code transcripts as real ones are (``stop_reason`` null on every assistant record): every answered turn is
completed with its final response, and a turn still running is not.

The fixtures under ``tests/fixtures/claude_code/null_stops/`` copy the structure of public Claude Code 1.0.119 and
2.0.9 transcripts (string and block prompts, one content block per assistant record, a ``summary`` line, a sidechain
record, tool_use/tool_result) with our own content. ``running.jsonl`` ends on a tool call with no result; the tests
move its timestamps to now where the rule depends on the session being idle (``moraine.store.reads.settled``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fixtures.handler_data import open_data, search_data
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import open_request, search_request

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "claude_code" / "null_stops"
SECRET = "completion-secret"


def _ingest(ingest_into_store: Any, path: Path) -> None:
    ingest_into_store([path], source="claude-code", harness="claude-code")


def _now_shifted(source: Path, target: Path, *, drop_last: int = 0) -> Path:
    """Copy ``source`` with its timestamps moved so that its last kept record was written a few seconds ago."""
    records = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    records = records[: len(records) - drop_last]
    last = datetime.fromisoformat(records[-1]["timestamp"].replace("Z", "+00:00"))
    shift = datetime.now(UTC) - timedelta(seconds=5) - last
    for record in records:
        moved = datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00")) + shift
        record["timestamp"] = moved.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    target.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return target


def _session_id(store: Store, keyword: str) -> str:
    data = search_data(
        store,
        search_request(query=keyword, event_types=["user_input", "assistant_response"], n_hits=5),
        bm25=Bm25(),
        snippet_chars=200,
    )
    assert data["results"], keyword
    return str(data["results"][0]["session"]["id"])


def _open(store: Store, id_: str, limit: int | None = 50) -> dict[str, Any]:
    return open_data(store, open_request(SECRET, id=id_, limit=limit), cursor_secret=SECRET)


def _final_texts(opened: dict[str, Any]) -> list[str | None]:
    return [(t["final_response"] or {}).get("text") for t in opened["turns"]]


def test_every_answered_turn_of_a_null_stop_transcript_is_completed_with_its_final_response(
    store: Store, ingest_into_store: Any
) -> None:
    _ingest(ingest_into_store, FIXTURES / "answered.jsonl")
    opened = _open(store, _session_id(store, "nullstopkestrel"))
    assert opened["session"]["completed"] is True
    assert opened["session"]["title"] == "Payroll rounding fix"
    turns = opened["turns"]
    assert [t["completed"] for t in turns] == [True, True, True]
    finals = _final_texts(opened)
    assert [text.split()[-1] for text in finals if text] == [
        "answerkestrelone",
        "answerkestreltwo",
        "answerkestrelthree",
    ]
    for turn in turns:  # the terminal event is the final response, and it is flagged terminal
        assert turn["terminal_event_id"] == turn["final_response"]["event_id"]
        event = _open(store, turn["terminal_event_id"], limit=None)
        assert event["event"]["terminal"] is True
        assert event["turn"]["completed"] is True
    second = _open(store, turns[1]["id"])
    terminal = [e["id"] for e in second["events"] if e["terminal"]]
    assert terminal == [turns[1]["terminal_event_id"]]


def test_a_running_last_turn_stays_in_progress_without_an_invented_final_response(
    store: Store, ingest_into_store: Any, tmp_path: Path
) -> None:
    _ingest(ingest_into_store, _now_shifted(FIXTURES / "running.jsonl", tmp_path / "running.jsonl"))
    opened = _open(store, _session_id(store, "nullstopheron"))
    assert [t["completed"] for t in opened["turns"]] == [True, False]
    assert _final_texts(opened) == [
        "Two fail: test_round_half and test_negative_refund. answerheronone",
        None,
    ]
    assert opened["turns"][1]["terminal_event_id"] is None
    assert opened["session"]["completed"] is False


def test_a_last_answer_written_moments_ago_is_not_yet_final(
    store: Store, ingest_into_store: Any, tmp_path: Path
) -> None:
    fresh = _now_shifted(FIXTURES / "running.jsonl", tmp_path / "fresh.jsonl", drop_last=1)
    _ingest(ingest_into_store, fresh)
    opened = _open(store, _session_id(store, "nullstopheron"))
    assert [t["completed"] for t in opened["turns"]] == [True, False]
    assert _final_texts(opened)[1] is None
    assert opened["session"]["completed"] is False


def test_a_last_answer_left_idle_ends_the_session(
    store: Store, ingest_into_store: Any, tmp_path: Path
) -> None:
    lines = (FIXTURES / "running.jsonl").read_text(encoding="utf-8").splitlines()
    idle = (
        tmp_path / "idle.jsonl"
    )  # the same session as recorded in 2025, ending on the text before the tool call
    idle.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    _ingest(ingest_into_store, idle)
    opened = _open(store, _session_id(store, "nullstopheron"))
    assert [t["completed"] for t in opened["turns"]] == [True, True]
    assert _final_texts(opened)[1] == "Running them now. interimheronnotfinal"
    assert opened["session"]["completed"] is True
