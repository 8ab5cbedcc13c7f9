"""Kiro CLI adapter: golden over the project's own session log and sidecar, plus behaviours."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter

from moraine.harnesses.kiro_cli.adapter import KiroAdapter

HERE = Path(__file__).parent
HOME = HERE / "home"

LOG = HOME / ".kiro/sessions/cli/61a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8.jsonl"


def normalized(path: Path = LOG, state=None):
    return run_adapter(KiroAdapter(), jsonl_records(path), path, "kiro", state)


def test_kiro_session_matches_golden() -> None:
    assert_golden(normalized()[0], HERE / "expected/session.golden.json")


def test_sidecar_supplies_session_title_cwd_and_model() -> None:
    items, _ = normalized()
    info = items[0]
    assert (info["session"], info["title"], info["cwd"], info["model"]) == (
        "61a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8",
        "Greenhouse vent controller",
        "/home/dev/greenhouse",
        "claude-sonnet-4.5",
    )
    assert sum(1 for i in items if i["item"] == "session_info") == 1


def test_a_changed_sidecar_is_read_again(tmp_path: Path) -> None:
    log = tmp_path / LOG.name
    shutil.copy(LOG, log)
    shutil.copy(LOG.with_suffix(".json"), log.with_suffix(".json"))
    _, state = normalized(log)
    meta = json.loads(log.with_suffix(".json").read_text())
    meta["title"] = "Vent controller (renamed)"
    log.with_suffix(".json").write_text(json.dumps(meta) + "\n")
    items, _ = normalized(log, state)
    assert [i["title"] for i in items if i["item"] == "session_info"] == ["Vent controller (renamed)"]


def test_response_without_tool_use_is_final_and_unknown_kinds_stay_unknown() -> None:
    items = events(normalized()[0])
    assert [e["text"] for e in items if e["is_final_answer"]] == [
        "The threshold is 85, which is Fahrenheit; the sensor reports Celsius."
    ]
    assert [e["type"] for e in items if e["provenance"]["kind"] == "FutureKind"] == ["unknown"]
    moraine = [e for e in items if e["tool_name"] == "search_sessions"]
    assert [e["is_moraine_tool"] for e in moraine] == [True, True]
    assert [e["tool_error"] for e in moraine] == [None, True]
