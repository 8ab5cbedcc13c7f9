"""The corpus generator: deterministic bytes, planted needles where the manifest says, real record shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tools.corpus import MANIFEST, generate
from tools.corpus.__main__ import main

EVENTS = 3_000


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    generate(out, EVENTS, seed=11)
    return out


def _manifest(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    return data


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _lines(root: Path) -> list[str]:
    return [
        line for p in sorted(root.rglob("*.jsonl")) for line in p.read_text(encoding="utf-8").splitlines()
    ]


def test_same_seed_writes_the_same_bytes(corpus: Path, tmp_path: Path) -> None:
    generate(tmp_path, EVENTS, seed=11)
    assert _tree(tmp_path) == _tree(corpus)


def test_another_seed_writes_another_corpus(corpus: Path, tmp_path: Path) -> None:
    generate(tmp_path, EVENTS, seed=12)
    assert _tree(tmp_path) != _tree(corpus)


def test_the_corpus_has_exactly_the_requested_number_of_records(corpus: Path) -> None:
    assert len(_lines(corpus)) == EVENTS
    assert _manifest(corpus)["events"] == EVENTS


def test_both_harnesses_write_files_in_their_own_layout(corpus: Path) -> None:
    codex = list((corpus / "codex" / "sessions").glob("*/*/*/rollout-*.jsonl"))
    claude = list((corpus / "claude" / "projects").glob("*/*.jsonl"))
    assert codex and claude
    assert len(codex) + len(claude) == _manifest(corpus)["files"]


def test_every_record_is_json_with_its_harness_fields(corpus: Path) -> None:
    for path in (corpus / "codex").rglob("*.jsonl"):
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert records[0]["type"] == "session_meta"
        assert records[0]["payload"]["id"] in path.name
        for record in records:
            assert set(record) == {"timestamp", "type", "payload"}
            assert record["timestamp"].endswith("Z")
    for path in (corpus / "claude").rglob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["type"] in ("user", "assistant"):
                assert record["sessionId"] == path.stem
                assert record["message"]["role"] == record["type"]
                assert record["uuid"] and record["timestamp"].endswith("Z") and record["cwd"].startswith("/")


def test_the_corpus_has_the_record_variety_of_real_traces(corpus: Path) -> None:
    kinds: set[str] = set()
    for line in _lines(corpus):
        record = json.loads(line)
        payload = record.get("payload")
        if isinstance(payload, dict):
            kinds.add(f"codex:{record['type']}:{payload.get('type', '')}")
        else:
            content = (record.get("message") or {}).get("content")
            block = content[0]["type"] if isinstance(content, list) else "text"
            kinds.add(f"claude:{record['type']}:{block}:{record.get('isSidechain', False)}")
    for expected in (
        "codex:session_meta:",
        "codex:turn_context:",
        "codex:response_item:function_call",
        "codex:response_item:function_call_output",
        "codex:response_item:custom_tool_call",
        "codex:response_item:reasoning",
        "codex:event_msg:user_message",
        "codex:event_msg:task_complete",
        "codex:event_msg:token_count",
        "claude:user:text:False",
        "claude:assistant:thinking:False",
        "claude:assistant:tool_use:False",
        "claude:user:tool_result:False",
        "claude:file-history-snapshot:text:False",
    ):
        assert expected in kinds


def test_every_needle_is_at_the_file_and_line_the_manifest_names(corpus: Path) -> None:
    needles = _manifest(corpus)["needles"]
    assert {n["kind"] for n in needles} == {
        "user_rare", "assistant_ident", "tool_arg", "tool_output", "multi", "unicode", "cjk", "file_path",
    }  # fmt: skip
    for needle in needles:
        assert needle["locations"]
        for location in needle["locations"]:
            line = (corpus / location["file"]).read_text(encoding="utf-8").splitlines()[location["line"] - 1]
            assert all(json.dumps(term, ensure_ascii=False)[1:-1] in line for term in needle["terms"])
            assert location["session_id"] in line or location["session_id"] in location["file"]


def test_needle_terms_appear_nowhere_but_at_their_locations(corpus: Path) -> None:
    lines = {
        (str(p.relative_to(corpus)), i + 1): text
        for p in corpus.rglob("*.jsonl")
        for i, text in enumerate(p.read_text(encoding="utf-8").splitlines())
    }
    for needle in _manifest(corpus)["needles"]:
        term = needle["terms"][-1]
        found = {key for key, text in lines.items() if term in text}
        assert found == {(loc["file"], loc["line"]) for loc in needle["locations"]}


def test_multi_term_needles_have_decoys_holding_one_term(corpus: Path) -> None:
    multi = [n for n in _manifest(corpus)["needles"] if n["kind"] == "multi"]
    assert multi and all(n["decoys"] for n in multi)


def test_the_command_refuses_a_directory_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["--events", "200", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "not empty" in result.output


def test_the_command_writes_a_corpus_and_says_how_big(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--events", "500", "--out", str(tmp_path / "c"), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "wrote 500 events" in result.output
    assert _manifest(tmp_path / "c")["events"] == 500
