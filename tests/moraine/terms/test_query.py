"""parse_query: a query's terms without function words (English and a few other languages), unless nothing else is
left; every term with them; the date it names; its plain words; whether it could be a harness's session ID."""

from __future__ import annotations

import pytest

from moraine.errors import RequestError
from moraine.terms.query import parse_query
from moraine.terms.timecue import Period


def search_terms(text: str) -> list[str]:
    return list(parse_query(text).terms)


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


def test_every_term_keeps_the_function_words_and_the_query_is_trimmed() -> None:
    parsed = parse_query("  what did we do about the flaky tests?\n")
    assert parsed.text == "what did we do about the flaky tests?"
    assert parsed.terms == ("flaky", "tests")
    assert parsed.every_term == ("what", "did", "we", "do", "about", "the", "flaky", "tests")
    assert "test" in parsed.forms and "flaky" not in parsed.forms


def test_the_date_plain_words_and_a_possible_native_id_are_read_from_the_same_text() -> None:
    dated = parse_query("Who did she have dinner with on May 3, 2023?")
    assert dated.period == Period(2023, 5, 3) and dated.natural_words == 8 and dated.maybe_native_id
    uuid = parse_query("0196a4c2-7f3e-7b1a-9c1d-2e3f4a5b6c7d")
    assert uuid.maybe_native_id and uuid.natural_words == 0 and uuid.period is None


@pytest.mark.parametrize("text", ["?!", "  ...  ", "-- //"])
def test_a_query_without_searchable_terms_is_an_invalid_request_on_the_query(text: str) -> None:
    with pytest.raises(RequestError) as caught:
        parse_query(text)
    assert caught.value.details["field"] == "query"
    assert caught.value.message.startswith("query has no searchable terms")
