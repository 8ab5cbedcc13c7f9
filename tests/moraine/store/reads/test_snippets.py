"""Snippets: a short window around the densest matches, marked where cut, never the whole payload."""

from __future__ import annotations

from moraine.store.reads.snippets import make_snippet

FILLER = "lorem ipsum dolor sit amet " * 40


def test_window_is_centred_on_the_match_not_the_opening() -> None:
    text = FILLER + "the ClickHouse migration failed on ordinal column " + FILLER
    snippet = make_snippet([text], ["migration"], 80)
    assert "migration" in snippet.text and snippet.truncated is True
    assert snippet.text.startswith("...") and snippet.text.endswith("...")
    assert len(snippet.text) <= 80 + 6 + 16


def test_densest_cluster_of_distinct_terms_wins_over_the_first_match() -> None:
    text = "cargo once here. " + FILLER + "cargo test failure in cargo test " + FILLER
    snippet = make_snippet([text], ["cargo", "test", "failure"], 60)
    assert "failure" in snippet.text and "test" in snippet.text


def test_short_text_is_returned_whole_and_untruncated() -> None:
    snippet = make_snippet(["  short\n\ntext  "], ["short"], 100)
    assert (snippet.text, snippet.truncated) == ("short text", False)


def test_matching_is_case_insensitive_and_unicode_aware() -> None:
    text = FILLER + "Wie GRÖSSE und Größe der Datenbank" + FILLER
    assert "Größe" in make_snippet([text], ["größe"], 60).text
    assert "東京" in make_snippet([FILLER + "東京の天気" + FILLER], ["東京"], 40).text


def test_falls_back_to_a_later_source_that_matches() -> None:
    snippet = make_snippet(["", '{"command": "grep -rn includeDirective src/"}'], ["includedirective"], 80)
    assert "includeDirective" in snippet.text


def test_no_match_gives_the_opening_window_marked_truncated() -> None:
    snippet = make_snippet([FILLER], ["absent"], 50)
    assert snippet.text.startswith("lorem") and snippet.text.endswith("...") and snippet.truncated
    assert len(snippet.text) < 60


def test_a_window_that_reaches_the_end_has_no_closing_mark() -> None:
    text = "x" * 300 + " the answer ends the message: meeting."
    snippet = make_snippet([text], ["meeting"], 60)
    assert snippet.truncated and snippet.text.startswith("...")
    assert snippet.text.endswith("meeting.")


def test_the_web_page_shows_the_snippet_as_the_server_marked_it() -> None:
    from pathlib import Path

    search = Path(__file__).resolve().parents[4] / "moraine" / "web" / "static" / "search.js"
    assert 'truncated ? "…"' not in search.read_text(encoding="utf-8")
