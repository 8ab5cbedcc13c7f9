"""Each harness's declared usage fact (``Harness.usage``, printed in docs/harnesses.md) against what its fixtures
yield once ingested (``tools.harnesses.table``): every harness whose fixtures carry token usage says where it comes
from, and one that says so without fixture evidence is named here with the test that shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from moraine.harnesses import harnesses
from tools.harnesses.table import collect

# Declared, with no usage in its own fixtures: where its reading is shown instead.
SHOWN_ELSEWHERE = {"pi-coding-agent": "tests/moraine/usage/test_usage_fixtures.py (pi's own usage sample)"}


def test_the_declared_usage_facts_match_the_fixtures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HOME", "MORAINE_HOME"):
        monkeypatch.setenv(name, str(tmp_path))  # collect() points them at its home; restored afterwards
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    rows = {row.harness: row for row in collect(tmp_path)}
    declared = {name for name, h in harnesses().items() if h.usage}
    yielded = {name for name, row in rows.items() if row.usage > 0}
    assert len(yielded) > 20, "the fixtures carry almost no usage: the ingest went wrong"
    assert yielded - declared == set(), "these harnesses read token usage but do not say so (Harness.usage)"
    assert declared - yielded == set(SHOWN_ELSEWHERE)
