"""display_label: title > first user message (first line, 120 chars + ellipsis) > summary > slug > built label."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from moraine.store.reads.labels import TITLE_CHARS, display_label, session_title
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


def test_title_is_the_harness_title_when_there_is_one() -> None:
    assert session_title("  Fix cart coupons ", "Make the export stream") == "Fix cart coupons"


def test_title_falls_back_to_the_first_prompts_first_line() -> None:
    assert session_title(None, "\n  Make the   export stream\nsecond line") == "Make the export stream"
    assert session_title(" ", "x" * TITLE_CHARS) == "x" * TITLE_CHARS


def test_a_long_first_line_is_cut_at_a_word_boundary_with_an_ellipsis() -> None:
    prompt = (
        "Make the invoice export stream its rows to the browser instead of loading the whole ledger table"
    )
    title = session_title(None, prompt)
    assert title == "Make the invoice export stream its rows to the browser instead of loading the…"
    assert len(title) <= TITLE_CHARS
    # One unbroken word is cut inside it.
    assert session_title(None, "y" * 200) == "y" * (TITLE_CHARS - 1) + "…"


def test_no_title_and_no_prompt_is_null() -> None:
    assert session_title(None, None) is None
    assert session_title("", "  \n ") is None
