"""One word for ``completed: false`` everywhere a person reads it: the web page, the CLI tables and the exports."""

from __future__ import annotations

import re
from pathlib import Path

from moraine.export.markdown import render_markdown
from moraine.export.walk import Transcript, TranscriptTurn
from moraine.store.reads.settled import IN_PROGRESS

ROOT = Path(__file__).resolve().parents[2] / "moraine"
READERS = [
    *sorted((ROOT / "web" / "static").glob("*.js")),
    ROOT / "cli" / "render.py",
    *(ROOT / "export").glob("*.py"),
]


def test_no_reader_calls_an_unfinished_turn_or_session_incomplete_or_open() -> None:
    for path in READERS:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""["'](?:turn )?incomplete["']|· incomplete|\(incomplete\)""", text), path
        assert "statusBadge(" not in text or not re.search(r"statusBadge\([^)]*,", text), path


def test_the_web_badge_and_the_markdown_export_say_in_progress() -> None:
    ui = (ROOT / "web" / "static" / "ui.js").read_text(encoding="utf-8")
    assert f'"{IN_PROGRESS}"' in ui
    transcript = Transcript(
        kind="session",
        session_id="session:x",
        title="t",
        harness="claude-code",
        source="claude-code",
        started_at=None,
        updated_at=None,
        turns=[TranscriptTurn("turn:x:1", 1, False, None, [])],
    )
    assert f"## Turn 1 ({IN_PROGRESS})" in render_markdown(transcript)
