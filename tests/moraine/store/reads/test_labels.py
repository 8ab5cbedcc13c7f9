"""display_label: title > first user message (first line, 120 chars + ellipsis) > summary > slug > built label."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from moraine.store.reads.labels import display_label
from moraine.store.reads.sessions import SessionRecord

BASE = SessionRecord(
    key=1, source="codex", harness="codex", title=None, summary=None, slug=None, first_user_message=None,
    started_at=datetime(2026, 4, 30, 13, 0), updated_at=datetime(2026, 4, 30, 13, 10, 0, 5000), completed=True,
    turn_count=3, event_count=17, mode="tool_calling", generation=1,
)  # fmt: skip


def test_explicit_title_wins() -> None:
    assert (
        display_label(replace(BASE, title=" Build failure triage ", summary="s", slug="x"))
        == "Build failure triage"
    )


def test_first_user_message_first_line_bounded_to_120_characters() -> None:
    assert display_label(replace(BASE, first_user_message="\n  Fix it\nmore lines", summary="s")) == "Fix it"
    long = "é" * 130 + "\nsecond"
    assert display_label(replace(BASE, first_user_message=long)) == "é" * 120 + "…"
    assert display_label(replace(BASE, first_user_message="x" * 120)) == "x" * 120


def test_summary_then_slug() -> None:
    assert (
        display_label(replace(BASE, summary="Build failure triage.", slug="build-failure"))
        == "Build failure triage."
    )
    assert display_label(replace(BASE, slug="build-failure")) == "build-failure"


def test_fallback_names_harness_mode_update_time_and_turns() -> None:
    assert display_label(BASE) == "Codex, tool session, 2026-04-30T13:10:00.005Z, 3 turns"
    one = replace(BASE, harness="claude-code", mode="web_search", turn_count=1)
    assert display_label(one) == "Claude Code, web search, 2026-04-30T13:10:00.005Z, 1 turn"
