"""The coding relevance set: real public Claude Code traces and known-item queries whose labels name their events.

Each label resolves to exactly the events it names (the query set's own validation: no search runs here), the set
holds at least 200 queries with at least 100 answered by a tool call or a tool output, and the draw of target events
that the queries were written from is the same for the same seed.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from moraine.store.client import Store
from tools.relevance.draw import KINDS, draw
from tools.relevance.labels import LabelError, LabeledQuery
from tools.relevance.sets import CODING, CODING_DIR, EventRef

TOOL_TYPES = {"tool_call", "tool_response"}


@pytest.fixture(scope="module")
def coding_store(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A store holding the coding set's traces."""
    database = f"relcoding_{uuid.uuid4().hex[:12]}"
    store = Store.open(store_dsn, database=database)
    try:
        store.migrate()
        CODING.ingest(store, Path(tmp_path_factory.mktemp("coding")))
        yield store
    finally:
        store.command(f"DROP DATABASE IF EXISTS {database}")
        store.close()


def _types(store: Store, refs: frozenset[EventRef]) -> set[str]:
    rows = store.query(
        f"SELECT DISTINCT type FROM {store.table('events')} "
        "WHERE (session_key, seq) IN {refs:Array(Tuple(UInt64, UInt32))}",
        {"refs": sorted(refs)},
    )
    return {str(row[0]) for row in rows}


def test_every_label_resolves_to_exactly_the_events_it_names(coding_store: Store) -> None:
    queries = CODING.load()
    answers = CODING.answers(coding_store, queries)  # raises LabelError unless each phrase matches its count
    assert set(answers) == {q.id for q in queries}
    assert all(
        len(refs) == sum(count for _, _, count in q.answers) for q, refs in zip(queries, answers.values())
    )


def test_the_set_has_200_queries_and_100_answered_by_tool_events(coding_store: Store) -> None:
    queries = CODING.load()
    assert len(queries) >= 200 and len({q.id for q in queries}) == len(queries)
    answers = CODING.answers(coding_store, queries)
    on_tools = [q.id for q in queries if _types(coding_store, answers[q.id]) <= TOOL_TYPES]
    assert len(on_tools) >= 100
    categories = Counter(q.category for q in queries)
    assert {"paraphrase", "identifier", "error", "tool-call", "tool-output", "multilingual", "vague"} <= set(
        categories
    )


def test_a_phrase_that_matches_another_number_of_events_is_refused(coding_store: Store) -> None:
    first = CODING.load()[0]
    doubled = LabeledQuery(
        first.id, first.category, first.query, first.event_types, first.session, first.phrase, 2
    )
    with pytest.raises(LabelError, match="not 2"):
        CODING.answers(coding_store, [doubled])
    missing = LabeledQuery(
        first.id, first.category, first.query, first.event_types, first.session, "no such phrase"
    )
    with pytest.raises(LabelError, match="matches 0 events"):
        CODING.answers(coding_store, [missing])


def test_the_draw_is_stratified_by_kind_and_repeats_for_the_same_seed(coding_store: Store) -> None:
    drawn = draw(coding_store, 34)
    assert drawn == draw(coding_store, 34)
    assert drawn != draw(coding_store, 35)
    per_kind = Counter(d.kind for d in drawn)
    assert set(per_kind) == set(KINDS)
    assert all(per_kind[kind] <= count for kind, count in KINDS.items())
    assert per_kind["tool_call"] == KINDS["tool_call"] and per_kind["tool_response"] == KINDS["tool_response"]


def test_the_traces_carry_their_provenance_and_licences() -> None:
    readme = (CODING_DIR / "README.md").read_text(encoding="utf-8")
    for origin in ("obra/episodic-memory", "moredip/session-share", "MIT"):
        assert origin in readme
    traces = sorted((CODING_DIR / "traces").rglob("*.jsonl"))
    assert len(traces) >= 10
