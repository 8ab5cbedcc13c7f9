"""The semantic-recall figures: ingest with the embedder running, and hybrid search over a full vectors table.

Embedding every eligible event of a large corpus for real is out of reach on a small machine (the model embeds
~7 passages/s per thread here, so 1,000,000 records would take many hours). The vectors table is therefore filled
with deterministic synthetic vectors for every eligible event that has none yet: nearest-neighbour search, its
HNSW index and the fusion then run at full scale, while each query is embedded by the real model. Relevance is not
measured here (``python -m tools.relevance`` does that on the labelled set); latency is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from moraine.in_flight import stand_aside
from moraine.terms.query import parse_query
from moraine.semantic.embedder import load_embedder
from moraine.semantic.hybrid import Hybrid, SemanticSettings
from moraine.semantic.passage_process import PassageProcess
from moraine.semantic.vectorizer import VECTOR_TYPES, BackgroundVectorizer
from moraine.store.client import Store
from tools.bench.cases import Case
from tools.bench.client import ToolClient
from tools.bench.ingest import IngestRun
from tools.bench.latency import CaseResult, run_warm

__all__ = ["SemanticRun", "fill_synthetic_vectors", "run_hybrid", "run_hybrid_busy", "vector_rows"]

SYNTHETIC_MODEL = "synthetic-benchmark"


@dataclass(slots=True)
class SemanticRun:
    threads: int
    ingest: IngestRun | None = None  # the same full ingest with the background vectorizer running
    vectors: int = 0  # rows in the vectors table when the hybrid searches ran
    synthetic: int = 0  # of which synthetic
    fill_seconds: float = 0.0
    warm: list[CaseResult] = field(default_factory=list)
    hybrid_variants: dict[str, str] = field(default_factory=dict)  # case -> "k of n variants went hybrid"
    # The same cases while the embedder works its backlog.
    busy: list[CaseResult] = field(default_factory=list)
    busy_embedded: int = 0  # passages the embedder stored while those ran

    def to_json(self) -> dict[str, Any]:
        return {
            "threads": self.threads,
            "ingest_with_embedder": self.ingest.to_json() if self.ingest else None,
            "vectors": self.vectors,
            "synthetic_vectors": self.synthetic,
            "fill_seconds": round(self.fill_seconds, 1),
            "hybrid_variants": self.hybrid_variants,
            "busy_embedded": self.busy_embedded,
        }


def fill_synthetic_vectors(store: Store) -> float:
    """Give every eligible event without a vector a deterministic synthetic one; return the seconds it took."""
    vectors, events, sessions = (store.table(t) for t in ("vectors", "events", "sessions"))
    started = time.perf_counter()
    store.command(
        f"INSERT INTO {vectors} (session_key, seq, turn_seq, type, harness, source, timestamp, model, vector, "
        "stream_id, source_offset) "
        "SELECT e.session_key, e.seq, e.turn_seq, e.type, s.harness, s.source, e.timestamp, {model:String}, "
        "arrayMap(i -> toBFloat16((cityHash64(e.session_key, e.seq, i) % 2001) / 1000.0 - 1.0), range(384)), "
        "e.stream_id, e.source_offset "
        f"FROM {events} AS e INNER JOIN (SELECT session_key, any(harness) AS harness, any(source) AS source "
        f"FROM {sessions} GROUP BY session_key) AS s USING session_key "
        "WHERE e.type IN {types:Array(String)} AND e.encrypted = 0 AND e.text != '' "
        f"AND (e.session_key, e.seq) NOT IN (SELECT session_key, seq FROM {vectors})",
        {"model": SYNTHETIC_MODEL, "types": list(VECTOR_TYPES)},
    )
    return time.perf_counter() - started


def run_hybrid(
    client: ToolClient, cases: list[Case], repeat: int, threads: int
) -> tuple[list[CaseResult], dict[str, str]]:
    """Time the search cases with a hybrid ranker in the client's handlers (the daemon's default when installed)."""
    hybrid = Hybrid(load_embedder(threads), SemanticSettings(threads=threads))
    searches = [case for case in cases if case.tool == "search_sessions"]
    went = {
        case.name: "%d of %d variants"
        % (
            sum(hybrid.applies(parse_query(v["query"]), v["event_types"]) for v in case.variants),
            len(case.variants),
        )
        for case in searches
    }
    client.semantic.current = hybrid
    try:
        return run_warm(client, searches, repeat), went
    finally:
        client.semantic.current = None


def run_hybrid_busy(
    store: Store, client: ToolClient, cases: list[Case], repeat: int, threads: int
) -> tuple[list[CaseResult], int]:
    """Time the search cases while a background vectorizer embeds the store's backlog, as a daemon does after a
    first backfill (its own store connection, its model in a process of its own that tool calls pause); return
    them and the passages it stored meanwhile."""
    passages = PassageProcess(threads)
    release = stand_aside(passages)
    vectorizer = BackgroundVectorizer(Store(store.dsn, store.database, limits=store.limits), passages)
    vectorizer.start()
    try:
        results, _ = run_hybrid(client, cases, repeat, threads)
    finally:
        release()
        vectorizer.shutdown()  # lets the batch in flight finish, so it is counted
        vectorizer.store.close()
        passages.close()
    return results, vectorizer.embedded


def vector_rows(store: Store) -> tuple[int, int]:
    """Return (all vectors, synthetic vectors)."""
    rows = store.query(
        f"SELECT count(), countIf(model = {{model:String}}) FROM {store.table('vectors')}",
        {"model": SYNTHETIC_MODEL},
    )
    return int(rows[0][0]), int(rows[0][1])
