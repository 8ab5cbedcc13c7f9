"""A file that is not what this group's readers expect is reported once and never stops ingest.

Table-driven over the readers: a non-database at a SQLite store's path, a JSON document cut mid-write, and a
conversation folder whose state is garbage each yield at most one ingest error per file version and no records.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from moraine.ingest.adapters import reader_for

GARBAGE = b"\x00\x01 this is not what the agent writes \xff" * 64
CASES = [
    ("goose_sqlite", "sessions.db", "unreadable_database"),
    ("zed_threads", "threads.db", "unreadable_database"),
    ("omnigent_sqlite", "chat.db", "unreadable_database"),
    ("amp_thread", "T-1.json", "malformed_document"),
    ("devin_transcript", "session.json", "malformed_document"),
]


@pytest.mark.parametrize(("reader", "name", "reason"), CASES, ids=[c[0] for c in CASES])
def test_a_file_of_the_wrong_kind_is_reported_once(
    tmp_path: Path, reader: str, name: str, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(GARBAGE)
    read = reader_for(reader)
    assert read is not None
    first = list(read.read(path, 0, 0))
    again = list(read.read(path, 0, 0))
    assert [(i.record, i.error.reason if i.error else None) for i in first] == [(None, reason)]
    assert again == []


def test_an_openhands_conversation_with_garbage_state_is_named_by_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "0123456789abcdef0123456789abcdef"
    (folder / "events").mkdir(parents=True)
    (folder / "base_state.json").write_bytes(GARBAGE)
    read = reader_for("openhands_conversation")
    assert read is not None
    items = list(read.read(folder / "base_state.json", 0, 0))
    assert [i.record.data["conversation"]["id"] for i in items if i.record] == [
        "01234567-89ab-cdef-0123-456789abcdef"
    ]
