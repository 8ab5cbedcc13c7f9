"""Kilo's token usage: one per model step (a ``step-finish`` part), in Moraine's convention (``TokenUsage``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import read_cleanly


def _store(tmp_path: Path) -> Path:
    return build_home(tmp_path, ["kilo"]) / ".local" / "share" / "kilo" / "kilo.db"


def test_each_step_finish_is_one_call_counted_by_hand(tmp_path: Path) -> None:
    """Hand count from kilo.db.sql's two step-finish parts: input 5210 and 5480 (cache reads apart), cache read
    11800 and 12040, output 240 and 61, no reasoning."""
    _, events = read_cleanly("kilo", _store(tmp_path))
    used = [e.usage for e in events if e.usage is not None]
    assert len(used) == 2
    assert sum(u.input or 0 for u in used) == 5210 + 5480
    assert sum(u.cache_read or 0 for u in used) == 11800 + 12040
    assert sum(u.output or 0 for u in used) == 240 + 61


def test_reasoning_kilo_keeps_apart_from_output_is_added_to_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    connection = sqlite3.connect(store)
    tokens = {"input": 5480, "output": 61, "reasoning": 35, "cache": {"read": 12040, "write": 0}}
    data = json.dumps({"type": "step-finish", "reason": "stop", "tokens": tokens})
    connection.execute("UPDATE part SET data = ? WHERE id = 'prt_k07'", (data,))
    connection.commit()
    connection.close()
    _, events = read_cleanly("kilo", store)
    last = [e.usage for e in events if e.usage is not None][-1]
    assert (last.output, last.reasoning, last.input) == (61 + 35, 35, 5480)
