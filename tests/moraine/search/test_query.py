"""search_terms: a query's terms without English function words, unless nothing else is left."""

from __future__ import annotations

from moraine.search.query import search_terms


def test_function_words_are_dropped_and_order_kept() -> None:
    assert search_terms("When did Caroline go to the LGBTQ support group?") == [
        "caroline", "go", "lgbtq", "support", "group",
    ]  # fmt: skip


def test_a_query_of_function_words_only_keeps_them() -> None:
    assert search_terms("to be or not to be") == ["to", "be", "or", "not"]


def test_identifiers_and_other_languages_are_untouched() -> None:
    assert search_terms("parseConfigFile") == ["parseconfigfile", "parse", "config", "file"]
    assert search_terms("Warum läuft das Backup nicht") == ["warum", "läuft", "das", "backup", "nicht"]
