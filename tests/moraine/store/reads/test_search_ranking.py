"""The ranking rules on top of per-event BM25: evidence per session, questions in natural language, other forms
of a query's words, and the date a query names."""

from __future__ import annotations

from datetime import UTC, datetime

from fixtures.corpus.builder import Corpus, Ev, Sess, at
from moraine.ids import session_key
from moraine.terms.query import parse_query
from moraine.terms.tokenize import query_terms
from moraine.store.client import Store
from moraine.store.reads.search import Bm25, SearchQuery, search

TYPES = ("user_input", "assistant_response")
EVENTS_ONLY = Bm25(session_weight=0.0)


def first_session(store: Store, terms: list[str], bm25: Bm25, forms: list[str] | None = None) -> str:
    return first_hit(store, SearchQuery(tuple(terms), TYPES, 10, forms=tuple(forms or ())), bm25)


def first_hit(store: Store, query: SearchQuery, bm25: Bm25) -> str:
    page = search(store, query, bm25, snippet_chars=80)
    assert page.hits
    names = {session_key("codex", name): name for name in ("marathon", "the-fix", "chatty", "answer")}
    return names[page.hits[0].session.key]


def _marathon() -> Sess:
    """A long session that names each word of the query once in passing, and once all together in a short aside."""
    chatter = [
        "renamed the variables in the billing module and reran the formatter",
        "the dashboard chart colours were updated for the dark theme",
        "bumped the dependency versions and regenerated the lock file",
        "the csv export now quotes every field and handles empty rows",
    ]
    turns = [[Ev("user_input", f"{chatter[i % 4]} step {i}", at(i))] for i in range(40)]
    turns[5] = [Ev("assistant_response", "login page copy was reworded for the marketing team", at(5))]
    turns[12] = [Ev("assistant_response", "the oauth provider list is sorted alphabetically now", at(12))]
    turns[20] = [Ev("assistant_response", "a redirect from the old docs url was added", at(20))]
    turns[33] = [Ev("user_input", "oauth callback login redirect?", at(33))]
    return Sess("marathon", turns=turns)


def _fix() -> Sess:
    """The short session that did the work: the query's words meet again and again."""
    return Sess(
        "the-fix",
        turns=[
            [
                Ev(
                    "user_input",
                    "after the oauth callback the login redirect loops forever, please look",
                    at(100),
                ),
                Ev(
                    "assistant_response",
                    "found it: the oauth callback drops the state cookie, so login starts over and the redirect "
                    "loops; the callback now keeps the cookie (SameSite=Lax) and the login redirect completes",
                    at(101),
                ),
            ],
            [Ev("user_input", "confirmed, login redirect after oauth works", at(102))],
        ],
    )


def test_the_short_session_that_did_the_work_outranks_a_marathon(store: Store) -> None:
    corpus = Corpus(store)
    corpus.add(_marathon())
    corpus.add(_fix())
    terms = query_terms("oauth callback login redirect")
    assert first_session(store, terms, Bm25()) == "the-fix"
    # The rule switched off: the marathon's short aside is the best single event.
    assert first_session(store, terms, EVENTS_ONLY) == "marathon"


def test_session_evidence_never_changes_a_search_within_one_session(store: Store) -> None:
    corpus = Corpus(store)
    key = corpus.add(_marathon())
    corpus.add(_fix())
    terms = tuple(query_terms("oauth callback login redirect"))
    pages = [
        search(store, SearchQuery(terms, TYPES, 10, session_key=key), bm25, snippet_chars=80)
        # (replies first off: the marathon's "oauth callback login redirect?" would bring in its reply, a fifth hit)
        for bm25 in (Bm25(replies_first=False), Bm25(session_weight=0.0, replies_first=False))
    ]
    assert [(h.event.seq, h.score) for h in pages[0].hits] == [(h.event.seq, h.score) for h in pages[1].hits]
    assert len(pages[0].hits) == 4


def test_a_question_in_natural_language_is_ranked_by_its_content_words(store: Store) -> None:
    corpus = Corpus(store)
    corpus.add(
        Sess(
            "chatty",
            turns=[
                [
                    Ev(
                        "user_input",
                        "what did we do about it? we were going to do what we did with the other one, "
                        "and then we did the thing about the pipeline",
                        at(1),
                    )
                ]
            ],
        )
    )
    corpus.add(
        Sess(
            "answer", turns=[[Ev("assistant_response", "quarantined the flaky tests of the pipeline", at(2))]]
        )
    )
    question = "What did we do about the flaky tests in the pipeline?"
    parsed = parse_query(question)
    assert parsed.terms == ("flaky", "tests", "pipeline")
    assert first_session(store, list(parsed.terms), EVENTS_ONLY) == "answer"
    # The rule switched off: the function words ("what", "did", "we", "do", "about", "the") decide.
    assert first_session(store, query_terms(question), EVENTS_ONLY) == "chatty"


def test_other_forms_of_a_query_word_count_below_the_word_itself(store: Store) -> None:
    corpus = Corpus(store)
    corpus.add(
        Sess(
            "answer", turns=[[Ev("user_input", "she adopted a puppy last spring, adopting was easy", at(1))]]
        )
    )
    corpus.add(
        Sess("chatty", turns=[[Ev("user_input", "so many puppies were at the park that day again", at(2))]])
    )
    parsed = parse_query("When did she adopt the puppies?")
    terms, forms = list(parsed.terms), list(parsed.forms)
    assert terms == ["adopt", "puppies"]
    assert {"adopted", "adopting", "puppy"} <= set(forms)
    assert first_session(store, terms, Bm25(), forms) == "answer"
    # The rule switched off: only the exact word counts, and only the chatty session has one.
    assert first_session(store, terms, Bm25(form_weight=0.0), forms) == "chatty"


def test_an_exact_word_outranks_the_same_evidence_in_another_form(store: Store) -> None:
    corpus = Corpus(store)
    corpus.add(Sess("answer", turns=[[Ev("user_input", "we adopt the puppies on friday", at(1))]]))
    corpus.add(Sess("chatty", turns=[[Ev("user_input", "we adopted the puppy on friday", at(2))]]))
    parsed = parse_query("adopt puppies")
    assert first_session(store, list(parsed.terms), Bm25(), list(parsed.forms)) == "answer"


def test_an_event_on_the_date_the_query_names_is_lifted(store: Store) -> None:
    corpus = Corpus(store)
    may = datetime(2023, 5, 3, 18, 0, tzinfo=UTC)
    corpus.add(Sess("answer", turns=[[Ev("user_input", "dinner with mom at the new place", at(0, may))]]))
    corpus.add(
        Sess(
            "chatty",
            turns=[[Ev("user_input", "dinner with mom and dad, dinner again", at(0, may.replace(month=9)))]],
        )
    )
    question = "Who did she have dinner with on May 3, 2023?"
    parsed = parse_query(question)
    query = SearchQuery(parsed.terms, TYPES, 10, period=parsed.period)
    assert query.period is not None
    assert first_hit(store, query, Bm25()) == "answer"
    # The rule switched off: the chatty September session says "dinner" twice.
    assert first_hit(store, query, Bm25(time_weight=0.0)) == "chatty"


def _tool_outputs(store: Store) -> None:
    """Two tool outputs naming the failure: a one-line one, and a long log that names it twice among other lines;
    one that holds only another form of a query word; and a person's message holding only such forms."""
    corpus = Corpus(store)
    log = " ".join(f"step{i} compiled module{i} in {i} ms" for i in range(12))
    corpus.add(Sess("answer", turns=[[Ev("tool_response", "deploy timeout", at(1))]]))
    corpus.add(Sess("marathon", turns=[[Ev("tool_response", f"deploy timeout {log} deploy timeout", at(2))]]))
    corpus.add(Sess("chatty", turns=[[Ev("tool_response", "deploying stopped after timeouts", at(3))]]))
    corpus.add(Sess("the-fix", turns=[[Ev("user_input", "deploying stopped after timeouts", at(4))]]))


def _sessions_found(store: Store, query: SearchQuery, bm25: Bm25) -> list[str]:
    names = {session_key("codex", name): name for name in ("marathon", "the-fix", "chatty", "answer")}
    return [names[hit.session.key] for hit in search(store, query, bm25, snippet_chars=80).hits]


def test_tool_outputs_are_normalized_by_length_in_full_and_ranked_without_word_forms(store: Store) -> None:
    _tool_outputs(store)
    parsed = parse_query("deploy timeout")
    assert {"deploying", "timeouts"} <= set(parsed.forms)
    for types in (("tool_response",), ("user_input", "tool_response")):
        query = SearchQuery.from_query(parsed, types, 10)
        found = _sessions_found(store, query, EVENTS_ONLY)
        # The short output first (b = 1 for tool types); the output holding only other forms is not found.
        assert found[0] == "answer" and "marathon" in found and "chatty" not in found
        # A person's message is still found by another form of the words (forms count for messages).
        assert ("the-fix" in found) == ("user_input" in types)
        # Without length normalization and with forms, the long log's two mentions win and the forms match.
        unnormalized = Bm25(session_weight=0.0, tool_b=0.0, tool_form_weight=0.5)
        found = _sessions_found(store, query, unnormalized)
        assert found.index("marathon") < found.index("answer") and "chatty" in found
