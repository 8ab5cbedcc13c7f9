"""search_terms: a query's terms without function words (English and a few other languages), unless nothing else is left."""

from __future__ import annotations

from moraine.search.query import search_terms


def test_function_words_are_dropped_and_order_kept() -> None:
    assert search_terms("When did Caroline go to the LGBTQ support group?") == [
        "caroline", "go", "lgbtq", "support", "group",
    ]  # fmt: skip


def test_a_query_of_function_words_only_keeps_them() -> None:
    assert search_terms("to be or not to be") == ["to", "be", "or", "not"]


def test_identifiers_are_untouched() -> None:
    assert search_terms("parseConfigFile") == ["parseconfigfile", "parse", "config", "file"]


def test_function_words_of_other_languages_are_dropped_but_english_words_spelled_alike_are_kept() -> None:
    assert search_terms("correos de confirmación duplicados") == ["correos", "confirmación", "duplicados"]
    assert search_terms("Warum läuft das Backup nicht mehr?") == ["läuft", "backup", "mehr"]
    assert search_terms("der und das") == ["der", "und", "das"]  # nothing else: kept
    assert search_terms("les e-mails partent en double") == ["e-mails", "e", "mails", "partent", "double"]
    assert search_terms("die con mit com son comment") == ["die", "con", "mit", "com", "son", "comment"]
