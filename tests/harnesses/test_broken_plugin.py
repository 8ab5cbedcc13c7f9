"""A harness package whose adapter cannot be loaded is a loud error, never "no adapter yet": ``moraine ingest``
records it as its source's error and reads the other sources, ``moraine status`` and ``moraine doctor`` name it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from moraine.cli import main
from moraine.harnesses.registry import harnesses
from moraine.ingest.adapters import HarnessLoadError, adapter_for, load_problem
from moraine.store.client import Store
from tests.harnesses.plugin_dist import write_distribution

_PACKAGE = """
from moraine.harnesses import Harness, Location

HARNESS = Harness(
    name="broken-harness",
    display_name="Broken Harness",
    adapter="broken_moraine_harness.adapter:BrokenAdapter",
    locations=(Location("broken", "~/.broken/logs/*.jsonl"),),
)
"""
_ADAPTER = """
import a_module_this_plugin_forgot_to_depend_on  # the install is broken: this import fails
"""
CODEX_LINE = {
    "timestamp": "2026-05-01T12:00:00.000Z",
    "type": "session_meta",
    "payload": {"id": "c-1", "timestamp": "2026-05-01T12:00:00.000Z", "cwd": "/work"},
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A broken harness distribution on ``sys.path``, one file in its folder, and a Codex session beside it."""
    site = write_distribution(
        tmp_path / "site", "broken_moraine_harness", "broken-harness", _PACKAGE, _ADAPTER
    )
    monkeypatch.syspath_prepend(str(site))
    root = tmp_path / "home"
    (root / ".broken" / "logs").mkdir(parents=True)
    (root / ".broken" / "logs" / "b-1.jsonl").write_text('{"text": "never read"}\n')
    sessions = root / ".codex" / "sessions" / "2026" / "05" / "01"
    sessions.mkdir(parents=True)
    lines = [
        CODEX_LINE,
        {
            "timestamp": "2026-05-01T12:00:01.000Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": "feed the brokenplatypus at noon"},
        },
    ]
    (sessions / "rollout-2026-05-01T12-00-00-c-1.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines)
    )
    monkeypatch.setenv("HOME", str(root))
    monkeypatch.setenv("MORAINE_HOME", str(root / ".moraine"))
    harnesses.cache_clear()
    yield root
    harnesses.cache_clear()


def test_a_broken_adapter_raises_saying_which_and_why(home: Path) -> None:
    with pytest.raises(
        HarnessLoadError, match="broken_moraine_harness.adapter:BrokenAdapter cannot be imported"
    ):
        adapter_for("broken-harness")
    problem = load_problem("broken-harness", "jsonl")
    assert problem is not None and "a_module_this_plugin_forgot_to_depend_on" in problem
    assert load_problem("codex", "jsonl") is None


def test_ingest_reads_the_other_sources_and_status_and_doctor_name_the_broken_one(
    home: Path, store: Store, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')

    ingested = CliRunner().invoke(main, ["--config", str(config), "ingest"])

    assert ingested.exit_code == 0, ingested.output
    assert (
        "broken" not in ingested.output.split("no adapter yet")[-1]
        if "no adapter yet" in ingested.output
        else True
    )
    texts = store.query(f"SELECT text FROM {store.table('events')} WHERE type = 'user_input'")
    assert [row[0] for row in texts] == ["feed the brokenplatypus at noon"]
    errors = store.query(f"SELECT source, reason, detail FROM {store.table('ingest_errors')}")
    assert [(source, reason) for source, reason, _ in errors] == [("broken", "broken_harness")]
    assert "a_module_this_plugin_forgot_to_depend_on" in errors[0][2]
    status = CliRunner().invoke(main, ["--config", str(config), "status"])
    assert "broken harness" in " ".join(status.output.split())
    doctor = CliRunner().invoke(main, ["--config", str(config), "doctor"])
    assert (
        "[FAIL] source broken: broken harness: broken_moraine_harness.adapter:BrokenAdapter" in doctor.output
    )
