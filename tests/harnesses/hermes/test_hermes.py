"""Hermes adapter: live session JSON (rewritten in place) through its reader, and trajectory JSONL."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.harnesses.home import search
from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter

from moraine.harnesses.hermes.adapter import HermesAdapter
from moraine.harnesses.hermes.reader import HermesSessionReader

HERE = Path(__file__).parent
HOME = HERE / "home"

SESSION = HOME / ".hermes/sessions/session_20260801_090000_abc123.json"
TRAJECTORIES = HERE / "trajectories/batch_001.jsonl"


def read(path: Path, offset: int = 0, reader: HermesSessionReader | None = None):
    items = list((reader or HermesSessionReader()).read(path, offset, 0))
    return [i.record if i.record is not None else i.error for i in items], (
        items[-1].end if items else offset
    )


def test_hermes_session_file_matches_golden() -> None:
    records, _ = read(SESSION)
    items, _ = run_adapter(HermesAdapter(), records, SESSION, "hermes")
    assert_golden(items, HERE / "expected/session.golden.json")


def test_hermes_trajectories_match_golden() -> None:
    items, _ = run_adapter(HermesAdapter(), jsonl_records(TRAJECTORIES), TRAJECTORIES, "hermes")
    assert_golden(items, HERE / "expected/trajectories.golden.json")


def test_a_rewritten_session_file_emits_only_the_new_messages(tmp_path: Path) -> None:
    live = tmp_path / SESSION.name
    document = json.loads(SESSION.read_text())
    document["messages"] = document["messages"][:2]
    live.write_text(json.dumps(document))
    records, end = read(live)
    first, state = run_adapter(HermesAdapter(), records, live, "hermes")
    assert [e["text"] for e in events(first)] == [
        "Project rules: keep the weather station offline.",
        "Is the anemometer calibrated? hermeswindkeyword",
    ]
    shutil.copy(SESSION, tmp_path / "next.json")
    (tmp_path / "next.json").replace(live)  # Hermes rewrites the whole file (here: atomically, new inode)
    records, end2 = read(live, end)
    second, _ = run_adapter(HermesAdapter(), records, live, "hermes", state)
    texts = [e["text"] for e in events(second)]
    assert texts[0] == "Check the calibration log." and "hermeswindkeyword" not in " ".join(texts)
    assert end2 == 11
    assert read(live, end2)[0] == []


def test_a_half_written_file_is_reported_once_and_read_later(tmp_path: Path) -> None:
    live = tmp_path / SESSION.name
    live.write_text(SESSION.read_text()[:100])
    reader = HermesSessionReader()
    first, end = read(live, 0, reader)
    assert [r.reason for r in first] == ["malformed_session_file"] and end == 0
    assert read(live, 0, reader)[0] == []
    shutil.copy(SESSION, live)
    assert len(read(live, 0, reader)[0]) == 11


def test_finish_reasons_and_trajectory_completion_end_turns() -> None:
    records, _ = read(SESSION)
    live = events(run_adapter(HermesAdapter(), records, SESSION, "hermes")[0])
    assert [(e["text"], e["terminal_kind"], e["is_final_answer"]) for e in live if e["terminal"]] == [
        ("Yes, it was calibrated on July 30.", "final_response", True),
        ("Report: the anemometer", "stopped", False),
    ]
    trajectories = events(
        run_adapter(HermesAdapter(), jsonl_records(TRAJECTORIES), TRAJECTORIES, "hermes")[0]
    )
    assert [e["text"] for e in trajectories if e["is_final_answer"]] == [
        "Girdle Ness lighthouse is 37 metres tall."
    ]
    assert len({e["session"] for e in trajectories}) == 2


def _hits(store, word: str) -> int:
    return len(search(store, word, "hermes", "hermes"))


def test_pipeline_ingests_each_message_of_a_rewritten_session_file_exactly_once(
    store, tmp_path: Path
) -> None:
    from moraine.ingest.pipeline import ingest_paths

    live = tmp_path / SESSION.name
    document = json.loads(SESSION.read_text())
    document["messages"] = document["messages"][:2]
    live.write_text(json.dumps(document))
    ingest_paths(store, [live], source="hermes", harness="hermes", format="session_json")
    assert (_hits(store, "hermeswindkeyword"), _hits(store, "july")) == (1, 0)
    (tmp_path / "next.json").write_text(SESSION.read_text())
    (tmp_path / "next.json").replace(live)  # rewritten atomically: a new inode
    ingest_paths(store, [live], source="hermes", harness="hermes", format="session_json")
    ingest_paths(store, [live], source="hermes", harness="hermes", format="session_json")
    assert (_hits(store, "hermeswindkeyword"), _hits(store, "july")) == (1, 1)
