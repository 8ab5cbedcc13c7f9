"""A harness from a separate package: a distribution of its own (``*.dist-info/entry_points.txt``) on ``sys.path``
registers under the ``moraine.harnesses`` entry-point group, ``moraine ingest`` reads its default location with
its adapter, and ``moraine search`` finds its message under its own harness value; nothing in moraine names it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from moraine.cli import main
from moraine.config import default_sources
from moraine.harnesses import harness
from moraine.harnesses.registry import harnesses
from moraine.store.client import Store
from tests.harnesses.plugin_dist import write_distribution

KEYWORD = "toyplatypuskeyword"
_PACKAGE = '''
"""Toy Harness: one JSON line per message under ~/.toy/logs."""

from moraine.harnesses import Harness, Location, Resume

HARNESS = Harness(
    name="toy-harness",
    display_name="Toy Harness",
    adapter="toy_moraine_harness.adapter:ToyAdapter",
    locations=(Location("toy", "~/.toy/logs/*.jsonl"),),
    resume=Resume(("toy", "--resume")),
    reads="messages",
)
'''
_ADAPTER = '''
"""{"session", "role": "user"|"assistant", "text", "at"} -> events."""

from datetime import datetime

from moraine.harness_api.model import Event, EventType, IngestError


class ToyAdapter:
    def normalize(self, record, ctx):
        data = record.data
        if not isinstance(data, dict) or not isinstance(data.get("session"), str):
            return [IngestError("malformed_record", "a toy record is an object with a session")]
        user = data.get("role") == "user"
        return [
            Event(
                session=data["session"],
                type=EventType.USER_INPUT if user else EventType.ASSISTANT_RESPONSE,
                text=str(data.get("text", "")),
                timestamp=datetime.fromisoformat(data["at"]),
                starts_turn=user,
                is_final_answer=not user,
            )
        ]
'''


@pytest.fixture
def toy_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Put the toy distribution on ``sys.path`` and a home holding one toy log; forget both afterwards."""
    monkeypatch.syspath_prepend(
        str(write_distribution(tmp_path / "site", "toy_moraine_harness", "toy-harness", _PACKAGE, _ADAPTER))
    )
    home = tmp_path / "home"
    logs = home / ".toy" / "logs"
    logs.mkdir(parents=True)
    lines = [
        {
            "session": "t-1",
            "role": "user",
            "text": f"Feed the {KEYWORD} at noon",
            "at": "2026-05-01T12:00:00+00:00",
        },
        {
            "session": "t-1",
            "role": "assistant",
            "text": "Noted: noon feeding.",
            "at": "2026-05-01T12:00:05+00:00",
        },
    ]
    (logs / "t-1.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MORAINE_HOME", str(home / ".moraine"))
    harnesses.cache_clear()
    yield home
    harnesses.cache_clear()


def test_a_harness_package_on_the_path_is_registered_and_ingested(
    toy_home: Path, store: Store, tmp_path: Path
) -> None:
    declared = harness("toy-harness")
    assert declared is not None and declared.display_name == "Toy Harness"
    assert "toy" in {source.name for source in default_sources()}
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')

    result = CliRunner().invoke(main, ["--config", str(config), "ingest", "--source", "toy"])

    assert result.exit_code == 0, result.output
    sessions = store.query(f"SELECT harness, source, title FROM {store.table('sessions')} FINAL")
    assert [(harness, source) for harness, source, _ in sessions] == [("toy-harness", "toy")]
    texts = store.query(f"SELECT text FROM {store.table('events')} WHERE type = 'user_input'")
    assert [row[0] for row in texts] == [f"Feed the {KEYWORD} at noon"]
    # Search answers with the package's own harness value: the contract's harness list is open to packages.
    found = CliRunner().invoke(main, ["--config", str(config), "search", KEYWORD, "--json"])
    assert found.exit_code == 0, found.output
    envelope = json.loads(found.output)
    hits = envelope["data"]["results"]
    assert [hit["session"]["harness"] for hit in hits] == ["toy-harness"]
    assert KEYWORD in hits[0]["snippet"]["text"]
