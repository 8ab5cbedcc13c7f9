"""Question form: a query that asks when lifts the candidates that say when."""

from __future__ import annotations

import re

from fixtures.corpus.builder import Corpus, Ev, Sess, at
from moraine.terms.query import parse_query
from moraine.terms.questionform import TIME_WORDS, asks_when
from moraine.terms.tokenize import query_terms
from moraine.store.client import Store
from moraine.store.reads.search import Bm25, SearchQuery, search

TYPES = ("user_input", "assistant_response")
DENSE = "deploy to staging"
TIMED = "deploy to staging on Monday"


def _first(store: Store, query: str, bm25: Bm25) -> str:
    page = search(store, SearchQuery.from_query(parse_query(query), TYPES, 10), bm25, 200)
    return page.hits[0].event.text


def _deploys(store: Store) -> None:
    Corpus(store).add(
        Sess(
            "deploys",
            turns=[
                [Ev("user_input", DENSE, at(0)), Ev("assistant_response", TIMED, at(1))],
                [Ev("user_input", "the release notes need a review of the wording", at(2))],
            ],
        )
    )


def test_a_question_asking_when_puts_the_message_that_says_when_first(store: Store) -> None:
    _deploys(store)
    assert _first(store, "When did we deploy to staging?", Bm25(when_weight=0.3)) == TIMED
    # Without the rule the denser message is first.
    assert _first(store, "When did we deploy to staging?", Bm25(when_weight=0.0)) == DENSE


def test_a_question_that_does_not_ask_when_is_not_lifted(store: Store) -> None:
    _deploys(store)
    assert _first(store, "how did we deploy to staging?", Bm25(when_weight=0.3)) == DENSE


def test_time_words_are_relative_days_periods_weekdays_months_and_years() -> None:
    said = re.compile(TIME_WORDS)
    assert all(said.search(t) for t in ("I went yesterday", "back in May", "since 2023", "last Friday"))
    assert not any(said.search(t) for t in ("a lasting fix", "the yearly report", "2023x1"))
    assert asks_when(query_terms("When did Caroline go?")) and not asks_when(
        query_terms("Caroline went when?")
    )
    assert not asks_when(query_terms("when I said it seems to work and asked to commit it"))
    assert parse_query("When did Caroline go?").asks_when and not parse_query("Caroline went when?").asks_when
