"""Replies first: a message that asks about the query hands its place to the message that answers it."""

from __future__ import annotations

from fixtures.corpus.builder import Corpus, Ev, Sess, at
from moraine.ids import session_key
from moraine.terms.asking import asks_about
from moraine.terms.query import parse_query
from moraine.store.client import Store
from moraine.store.reads.search import Bm25, SearchQuery, search

TYPES = ("user_input", "assistant_response")
ON, OFF = Bm25(replies_first=True), Bm25(replies_first=False)
ASKED = "Melanie: that pottery class sounds fun! You play any instruments?"
ANSWER = "Caroline: yeah, the clarinet since I was young, it is how I relax"


def _texts(store: Store, query: str, bm25: Bm25, turn_seq: int | None = None) -> list[str]:
    key = session_key("codex", "chat") if turn_seq is not None else None
    parsed = parse_query(query)
    page = search(
        store, SearchQuery.from_query(parsed, TYPES, 10, session_key=key, turn_seq=turn_seq), bm25, 200
    )
    return [hit.event.text for hit in page.hits]


def _chat(store: Store) -> None:
    """Two people talking (every message a user_input), then an agent session."""
    Corpus(store).add(
        Sess(
            "chat",
            turns=[
                [Ev("user_input", ASKED, at(0))],
                [Ev("user_input", ANSWER, at(1))],
                [
                    Ev(
                        "user_input",
                        "Melanie: the instruments at the shop were too loud. Anything else new?",
                        at(2),
                    )
                ],
                [Ev("user_input", "Caroline: not much, a quiet week", at(3))],
            ],
        )
    )
    Corpus(store).add(
        Sess(
            "agent",
            turns=[
                [
                    Ev("user_input", "which database did we pick for the job queue?", at(10)),
                    Ev("assistant_response", "Postgres, with SKIP LOCKED rows: enough for our load.", at(11)),
                ],
            ],
        )
    )


def test_the_reply_to_a_question_about_the_query_comes_before_the_question(store: Store) -> None:
    _chat(store)
    assert _texts(store, "what instruments does Caroline play", ON)[:2] == [ANSWER, ASKED]
    # Without the rule the question is first, and the answer, holding no query word but "Caroline", further down.
    off = _texts(store, "what instruments does Caroline play", OFF)
    assert off[0] == ASKED and off.index(ANSWER) > 1


def test_an_agents_answer_to_its_users_question_is_left_where_it_is(store: Store) -> None:
    _chat(store)
    # The user's question is what a person remembers of the exchange: the rule leaves the agent's ranking alone.
    query = "what database for the job queue"
    assert (
        _texts(store, query, ON)
        == _texts(store, query, OFF)
        == ["which database did we pick for the job queue?"]
    )


def test_a_message_asking_something_else_keeps_its_place(store: Store) -> None:
    _chat(store)
    # "Anything else new?" names no query term: the statement before it is what matches, not a prompt.
    assert _texts(store, "instruments shop loud", ON)[0] == (
        "Melanie: the instruments at the shop were too loud. Anything else new?"
    )


def test_a_search_within_one_turn_takes_no_reply_from_the_next_turn(store: Store) -> None:
    _chat(store)
    # Scoped to the question's turn (the first), the answer in the second is out of scope and never shown.
    assert _texts(store, "what instruments does Caroline play", ON, turn_seq=1) == [ASKED]


def test_a_question_asks_about_a_term_only_when_the_question_itself_holds_it() -> None:
    assert asks_about("You play any instruments?", {"instruments"})
    assert not asks_about("I play the clarinet. What's up with you?", {"clarinet"})


def test_in_an_agents_session_a_users_question_keeps_its_place_over_their_next_message(store: Store) -> None:
    asked = "are we in a worktree while the checkout step runs?"
    later = "ok, then go ahead and commit on the worktree branch"
    Corpus(store).add(
        Sess(
            "work",
            turns=[
                [
                    Ev("user_input", asked, at(0)),
                    Ev("tool_call", "git rev-parse --git-common-dir", at(1)),
                ],
                [Ev("user_input", later, at(2))],
            ],
        )
    )
    # The agent's tool call comes between: the next message is no reply to the question, and the question, which
    # holds more of the query's words, stays first (a rule that took "the next user message" put `later` first).
    assert _texts(store, "worktree checkout step", ON)[0] == asked
