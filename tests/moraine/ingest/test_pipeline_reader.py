"""The streaming JSONL reader and glob discovery the pipeline stands on."""

from __future__ import annotations

from pathlib import Path

from moraine.config import SourceConfig
from moraine.ingest.discovery import discover, matches
from moraine.harnesses._shared.jsonl import JsonlReader


def test_reader_gives_byte_offsets_line_numbers_and_resumes_mid_file(tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    trace.write_bytes(b'{"a": 1}\r\n\n   \n{"b": "\xc3\xa9"}\n{"c": 3}\n{"partial"')
    items = list(JsonlReader(chunk_bytes=4).read(trace, 0, 0))
    assert [(i.offset, i.line_no, i.end, i.record.data if i.record else None) for i in items] == [
        (0, 1, 10, {"a": 1}),
        (15, 4, 27, {"b": "é"}),
        (27, 5, 36, {"c": 3}),
    ]
    resumed = list(JsonlReader().read(trace, items[1].end, items[1].end_line))
    assert [(i.line_no, i.record.data if i.record else None) for i in resumed] == [(5, {"c": 3})]


def test_reader_reports_each_bad_line_and_goes_on(tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    trace.write_bytes(b'{"ok": 1}\n\xff\xfe\n{bad json\n' + b"[" * 100_000 + b"\n" + b'{"ok": 2}\n')
    items = list(JsonlReader().read(trace, 0, 0))
    assert [
        (i.line_no, i.error.reason if i.error else i.record.data if i.record else None) for i in items
    ] == [
        (1, {"ok": 1}),
        (2, "invalid_utf8"),
        (3, "invalid_json"),
        (4, "json_too_deep"),
        (5, {"ok": 2}),
    ]


def test_discovery_follows_the_glob_and_matches_agrees_with_it(tmp_path: Path) -> None:
    for rel in ("a/2026/01/x.jsonl", "a/y.jsonl", "a/z.json", "b/w.jsonl"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}\n")
    source = SourceConfig("codex", "codex", f"{tmp_path}/a/**/*.jsonl", str(tmp_path / "a"))
    found = discover(source)
    assert found == [tmp_path / "a/2026/01/x.jsonl", tmp_path / "a/y.jsonl"]
    assert all(matches(source, p) for p in found)
    assert not matches(source, tmp_path / "a/z.json")
    assert not matches(source, tmp_path / "b/w.jsonl")
