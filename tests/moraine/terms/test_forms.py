"""word_forms / a parsed query's forms: a plain English word's other forms, found by stemming, nothing for anything else."""

from __future__ import annotations

from moraine.terms.forms import word_forms
from moraine.terms.query import parse_query


def test_inflections_share_the_stem() -> None:
    assert {"hike", "hikes", "hiked"} <= set(word_forms("hiking"))
    assert {"study", "studied"} <= set(word_forms("studies"))
    assert {"running", "runs"} <= set(word_forms("run"))
    assert "hiking" not in word_forms("hiking")


def test_identifiers_short_words_and_other_scripts_have_none() -> None:
    for term in ("parseconfigfile2", "go", "läuft", "設定", "v2", "snake_case"):
        assert word_forms(term) == (), term


def test_a_querys_forms_leave_out_its_terms_and_function_words() -> None:
    forms = parse_query("tests test").forms
    assert "tests" not in forms and "test" not in forms
    assert "testing" in forms
    assert not {"do", "does", "did"} & set(parse_query("doing").forms)
