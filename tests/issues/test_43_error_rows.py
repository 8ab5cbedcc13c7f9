"""Issue 43: an ingest error row says why and where, never what the line held; a file of errors writes a bounded
number of rows, the rest counted in one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Emitted, RawRecord
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import ingest, write_lines

PLANTED = "plantedibexsystemline"
MAX_ERRORS_PER_FILE = 100  # moraine.ingest.parse.MAX_ERRORS_PER_FILE (named here, so old code fails on rows)


def _rows(store: Store) -> list[tuple[Any, ...]]:
    return store.query(
        f"SELECT line_no, reason, detail FROM {store.table('ingest_errors')} ORDER BY line_no, reason"
    )


def test_error_rows_of_a_file_that_is_not_a_trace_hold_none_of_its_bytes(
    store: Store, tmp_path: Path
) -> None:
    # A symlink to a system file, say: lines that are not JSON, one that is not UTF-8, one an adapter trips on.
    system = tmp_path / "passwd"
    system.write_bytes(
        f"root:x:0:0:{PLANTED}:/root:/bin/bash\n".encode()
        + f"{PLANTED}\xff\n".encode("latin-1")
        + json.dumps({"session": "s", "explode": PLANTED}).encode()
        + b"\n"
    )
    trace = tmp_path / "trace.jsonl"
    trace.symlink_to(system)

    class Exploding:
        harness = "codex"

        def normalize(self, record: RawRecord, ctx: StreamContext) -> list[Emitted]:
            raise ValueError(f"cannot read {record.data['explode']!r}")

    summary = ingest_paths(store, [trace], source="codex", harness="codex", adapter=Exploding())  # type: ignore[arg-type]
    rows = _rows(store)
    assert [reason for _, reason, _ in rows] == ["invalid_json", "invalid_utf8", "adapter_error"]
    assert summary.errors == 3
    for _, _, detail in rows:
        assert PLANTED not in detail and "root" not in detail and "bash" not in detail, detail


def test_a_file_of_errors_writes_a_bounded_number_of_rows_and_counts_the_rest(
    store: Store, tmp_path: Path
) -> None:
    bad = 5_000
    trace = tmp_path / "bad.jsonl"
    trace.write_text("".join(f"not json {n}\n" for n in range(bad)))
    write_lines(tmp_path / "good.jsonl", [{"session": "g", "text": "hello"}])
    summary = ingest(store, trace, tmp_path / "good.jsonl")
    rows = _rows(store)
    assert len(rows) == MAX_ERRORS_PER_FILE + 1
    assert summary.errors == bad and summary.events == 1  # every error counted, the other file read
    line_no, reason, detail = rows[-1]
    assert reason == "more_errors" and line_no == bad
    assert detail.startswith(f"{bad - MAX_ERRORS_PER_FILE} more errors in this file")
