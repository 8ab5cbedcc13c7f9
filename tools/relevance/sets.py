"""The relevance sets the benchmark measures: ``current`` (the synthetic corpus) and ``coding`` (real public traces).

A set knows how to ingest its corpus into a migrated store, read its labeled queries and resolve every query to
the events that answer it (one, or several equivalent ones).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from moraine.ids import session_key
from moraine.ingest.pipeline import ingest_paths
from moraine.store.client import Store
from tests.fixtures.relevance.corpus import write_corpus
from tools.relevance.labels import LabeledQuery, LabelError, load_queries, matching_seqs, resolve, source_of

__all__ = ["CODING", "CODING_DIR", "CURRENT", "SETS", "EventRef", "RelevanceSet", "coding_sessions"]

CODING_DIR = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "relevance_coding"
CODING_SOURCE = ("claude", "claude-code")  # (source, harness) the coding traces are ingested as

EventRef = tuple[int, int]  # (session key, seq)


@dataclass(frozen=True, slots=True)
class RelevanceSet:
    name: str
    ingest: Callable[[Store, Path], None]  # (migrated store, scratch directory)
    load: Callable[[], list[LabeledQuery]]
    answers: Callable[[Store, list[LabeledQuery]], dict[str, frozenset[EventRef]]]


def _ingest_current(store: Store, root: Path) -> None:
    write_corpus(root)
    for harness in ("codex", "claude"):
        source, harness_name = source_of(harness)
        ingest_paths(store, [root / harness], source=source, harness=harness_name)


def _answers_current(store: Store, queries: list[LabeledQuery]) -> dict[str, frozenset[EventRef]]:
    return {qid: frozenset({ref}) for qid, ref in resolve(store, queries).items()}


def _ingest_coding(store: Store, _root: Path) -> None:
    source, harness = CODING_SOURCE
    ingest_paths(store, [CODING_DIR / "traces" / "claude"], source=source, harness=harness)


def coding_sessions() -> dict[str, str]:
    """Return the coding set's session names and the harness session id each stands for."""
    data = json.loads((CODING_DIR / "queries.json").read_text(encoding="utf-8"))
    return {str(name): str(sid) for name, sid in data["sessions"].items()}


def _answers_coding(store: Store, queries: list[LabeledQuery]) -> dict[str, frozenset[EventRef]]:
    """Resolve each of a query's answers to exactly its number of events (LabelError otherwise); return them per
    query."""
    sessions = coding_sessions()
    out: dict[str, frozenset[EventRef]] = {}
    for q in queries:
        refs: set[EventRef] = set()
        for name, phrase, count in q.answers:
            if name not in sessions:
                raise LabelError(f"{q.id}: unknown session {name!r}")
            key = session_key(CODING_SOURCE[0], sessions[name])
            seqs = matching_seqs(store, key, q.event_types, phrase)
            if len(seqs) != count:
                raise LabelError(
                    f"{q.id}: phrase {phrase!r} matches {len(seqs)} events of {name}, not {count}"
                )
            refs.update((key, seq) for seq in seqs)
        out[q.id] = frozenset(refs)
    return out


CURRENT = RelevanceSet("current", _ingest_current, load_queries, _answers_current)
CODING = RelevanceSet(
    "coding", _ingest_coding, lambda: load_queries(CODING_DIR / "queries.json"), _answers_coding
)
SETS = {s.name: s for s in (CURRENT, CODING)}
