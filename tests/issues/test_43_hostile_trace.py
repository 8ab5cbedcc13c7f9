"""Issue 43, item 3: one hostile trace must be one clear error in ``moraine status``, every other file read.

Deeply nested JSON (a Gemini CLI chat file, a Zed thread row, a Goose message row, a Cline task, a JSONL line)
stopped the whole pass with a ``RecursionError``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fixtures.cli_run import run_cli
from moraine.config import SourceConfig
from moraine.ingest.discovery import discover
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store
from tests.harnesses.home import build_home, search, settle, write_config
from tests.moraine.ingest.test_pipeline import conversation, write_lines
from tests.moraine.ingest.toy_adapter import ToyAdapter

DEEP = "[" * 100_000 + "]" * 100_000  # far past Python's recursion limit
TOO_DEEP = "nesting deeper than 128 levels"
CLINE_TASKS = ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"


def _flat(text: str) -> str:
    """Return ``text`` without whitespace: status lines longer than the console are wrapped, long paths folded."""
    return "".join(text.split())


def _errors(store: Store) -> dict[str, list[tuple[str, str]]]:
    """Return the ingest errors by path: (reason, detail) each."""
    found: dict[str, list[tuple[str, str]]] = {}
    for path, reason, detail in store.query(
        f"SELECT path, reason, detail FROM {store.table('ingest_errors')} ORDER BY path, line_no"
    ):
        found.setdefault(path, []).append((reason, detail))
    return found


@pytest.fixture
def hostile_home(tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Gemini CLI, Zed, Goose and Cline fixtures, each beside one deeply nested file or row; return the config."""
    home = build_home(tmp_path / "home", ["gemini_cli", "zed", "goose", "cline"])
    chats = home / ".gemini" / "tmp" / "evil" / "chats"
    chats.mkdir(parents=True)
    (chats / "session-2026-09-03T00-00-dead.json").write_text(
        '{"sessionId": "x", "messages": [' + DEEP + "]}"
    )
    with sqlite3.connect(home / ".local/share/zed/threads/threads.db") as zed:
        zed.execute(
            "INSERT INTO threads (id, summary, updated_at, data_type, data) VALUES (?, ?, ?, ?, ?)",
            ("evil", "evil", "2025-01-01T00:00:00Z", "json", '{"messages": ' + DEEP + "}"),
        )
    with sqlite3.connect(home / ".local/share/goose/sessions/sessions.db") as goose:
        goose.execute(
            "INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp) "
            "VALUES ('evil', '20251104_3', 'user', ?, 1762247999)",
            (DEEP,),
        )
    task = home / CLINE_TASKS / "1789030000999"
    task.mkdir()
    (task / "ui_messages.json").write_text(DEEP)
    settle(home)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MORAINE_HOME", str(home / ".moraine"))
    return write_config(home / ".moraine", store=store.dsn, database=store.database)


def test_deeply_nested_files_and_rows_are_errors_in_status_and_everything_else_is_searchable(
    hostile_home: Path, store: Store
) -> None:
    sources = ("gemini-cli", "zed", "goose-sqlite", "cline")
    run_cli("--config", str(hostile_home), "ingest", *(arg for s in sources for arg in ("--source", s)))
    out = _flat(run_cli("--config", str(hostile_home), "status", "--errors", "20"))

    home = hostile_home.parent.parent
    for harness, keyword in [
        ("gemini-cli", "geminiquokkakeyword"),
        ("zed", "zedtilapiakeyword"),
        ("goose", "goosekilnkeyword"),
        ("cline", "clinekestrelkeyword"),
    ]:
        assert search(store, keyword, harness=harness), f"{harness}'s fixture is not searchable"
    errors = _errors(store)
    gemini = str(home / ".gemini/tmp/evil/chats/session-2026-09-03T00-00-dead.json")
    zed = str(home / ".local/share/zed/threads/threads.db")
    goose = str(home / ".local/share/goose/sessions/sessions.db")
    cline = str(home / CLINE_TASKS / "1789030000999" / "ui_messages.json")
    assert errors[gemini] == [("malformed_session_file", f"not readable as JSON yet: {TOO_DEEP}")]
    assert errors[zed] == [("malformed_row", f"thread evil: data is not readable ({TOO_DEEP})")]
    [(reason, detail)] = errors[goose]
    assert reason == "malformed_row" and detail.endswith(f"content is not readable JSON ({TOO_DEEP})")
    # The Cline reader bounds no depth itself: the boundary around each file reports it (no content quoted).
    assert errors[cline] == [
        ("read_failed", "nesting too deep to read; read again from here when the file changes")
    ]
    assert _flat(f"{gemini}:0 malformed_session_file: not readable as JSON yet: {TOO_DEEP}") in out
    assert _flat(f"zed {zed}:") in out and _flat(f"thread evil: data is not readable ({TOO_DEEP})") in out
    assert (
        _flat(f"goose-sqlite {goose}:") in out and _flat(f"content is not readable JSON ({TOO_DEEP})") in out
    )
    assert _flat(f"{cline}:0 read_failed: nesting too deep to read") in out

    again = run_cli(
        "--config", str(hostile_home), "ingest", *(arg for s in sources for arg in ("--source", s))
    )
    assert "errors 0" in again  # reported once per version of a file, not on every pass


@pytest.mark.parametrize("workers", [0, 1])
def test_a_jsonl_record_nested_deeply_is_one_error_and_the_rest_of_its_file_is_read(
    store: Store, tmp_path: Path, workers: int
) -> None:
    deep: object = "leaf"
    for _ in range(
        600
    ):  # within the JSONL parser's limit (1,024), far beyond what rendering a record can follow
        deep = [deep]
    trace = tmp_path / "deep.jsonl"
    records = conversation("s1", turns=1)
    records.insert(2, {"session": "s1", "type": "tool_call", "tool": "Bash", "args": {"command": deep}})
    write_lines(trace, records)
    other = tmp_path / "other.jsonl"
    write_lines(other, conversation("s2", turns=1, prefix="neighbour "))

    summary = ingest_paths(
        store, [trace, other], "codex", "codex", ToyAdapter(), workers=workers, worker_min_bytes=0
    )

    assert summary.workers == workers
    errors = _errors(store)
    assert list(errors) == [str(trace)]
    [(reason, detail)] = errors[str(trace)]
    assert reason == "invalid_event" and TOO_DEEP in detail
    texts = {row[0] for row in store.query(f"SELECT text FROM {store.table('events')}")}
    assert {
        r["text"] for r in records if r.get("type") == "assistant_response"
    } <= texts  # after the deep line
    assert "neighbour question 1 about parseConfigFile" in texts


@pytest.mark.timeout(60)  # glob.glob never ended here
def test_links_looping_back_to_their_folder_end_discovery_and_a_linked_folder_elsewhere_is_searched(
    tmp_path: Path,
) -> None:
    sessions = tmp_path / "sessions"
    (sessions / "2026").mkdir(parents=True)
    (sessions / "2026" / "a.jsonl").write_text("{}\n")
    for name in ("x", "y", "z"):
        (sessions / name).symlink_to(".")
    (sessions / "2026" / "up").symlink_to("..")
    (sessions / "same").symlink_to("2026")  # the real folder's files keep their real path
    elsewhere = tmp_path / "disk"
    elsewhere.mkdir()
    (elsewhere / "b.jsonl").write_text("{}\n")
    (elsewhere / "back").symlink_to(sessions)
    (sessions / "moved").symlink_to(elsewhere)
    source = SourceConfig("codex", "codex", f"{sessions}/**/*.jsonl", str(sessions))

    found = discover(source)

    assert found == [sessions / "2026" / "a.jsonl", sessions / "moved" / "b.jsonl"]
