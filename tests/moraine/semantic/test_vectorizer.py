"""The background vectorizer: embeds published user/assistant events once, resumes from its watermark."""

from __future__ import annotations

import hashlib
import math
import shutil
from collections.abc import Sequence
from pathlib import Path

from moraine.semantic.vectorizer import BackgroundVectorizer, vector_progress, vectorize_pending
from moraine.store.reads.vectors import nearest
from moraine.store.client import Store
from tests.conftest import IngestIntoStore
from tests.fixtures.relevance.corpus import write_corpus


class HashingEmbedder:
    """A deterministic bag-of-words embedder (fast; the vectorizer's bookkeeping does not depend on the model)."""

    name = "hashing-test"

    def __init__(self) -> None:
        self.calls = 0

    def _vector(self, text: str) -> list[float]:
        out = [0.0] * 384  # the dimension the vector index expects
        for word in text.lower().split():
            out[int.from_bytes(hashlib.sha256(word.encode()).digest()[:2], "big") % 384] += 1.0
        norm = math.sqrt(sum(x * x for x in out)) or 1.0
        return [x / norm for x in out]

    def query(self, text: str) -> list[float]:
        return self._vector(text)

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return [self._vector(t) for t in texts]


def _corpus(tmp_path: Path) -> Path:
    write_corpus(tmp_path / "all")
    return tmp_path / "all" / "codex"


def _counts(store: Store) -> tuple[int, int]:
    rows = store.query(f"SELECT count(), uniqExact(session_key, seq) FROM {store.table('vectors')} FINAL")
    return int(rows[0][0]), int(rows[0][1])


def test_every_published_user_and_assistant_event_gets_one_vector(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    ingest_into_store([_corpus(tmp_path)])
    before = vector_progress(store)
    assert before.vectors == 0 and before.eligible > 20
    done = vectorize_pending(store, HashingEmbedder())
    assert done == before.eligible
    assert _counts(store) == (done, done)
    types = {r[0] for r in store.query(f"SELECT DISTINCT type FROM {store.table('vectors')}")}
    assert types == {"user_input", "assistant_response"}
    assert vector_progress(store).pending == 0
    assert vectorize_pending(store, HashingEmbedder()) == 0  # nothing left: the watermark says so


def test_passes_cut_short_resume_where_the_watermark_left_off(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    ingest_into_store([_corpus(tmp_path)])
    eligible = vector_progress(store).eligible
    total, passes = 0, 0
    while (n := vectorize_pending(store, HashingEmbedder(), batch=2, budget=3)) > 0:
        total, passes = total + n, passes + 1
    assert passes > 3 and total == eligible
    assert _counts(store) == (eligible, eligible)


def test_events_appended_after_a_pass_are_embedded_by_the_next_and_only_they(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    codex = _corpus(tmp_path)
    files = sorted(codex.rglob("*.jsonl"))
    ingest_into_store(files[:3])
    first = vectorize_pending(store, HashingEmbedder())
    ingest_into_store(files)
    second = vectorize_pending(store, HashingEmbedder())
    assert first > 0 and second > 0
    assert first + second == vector_progress(store).eligible == _counts(store)[1]


def test_a_rewritten_file_has_its_vectors_replaced(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    codex = _corpus(tmp_path)
    one = sorted(codex.rglob("*.jsonl"))[0]
    ingest_into_store([one])
    vectorize_pending(store, HashingEmbedder())
    lines = one.read_text(encoding="utf-8").splitlines(keepends=True)
    replacement = tmp_path / "replacement.jsonl"
    replacement.write_text("".join(lines[: len(lines) // 2]).replace("the", "THE"), encoding="utf-8")
    shutil.move(replacement, one)  # new inode, shorter file: the ingest replaces the stream's rows
    ingest_into_store([one])
    generation = store.query(f"SELECT max(generation) FROM {store.table('checkpoints')} FINAL")[0][0]
    assert generation >= 1  # the ingest saw a rewrite
    vectorize_pending(store, HashingEmbedder())
    eligible = vector_progress(store).eligible
    orphans = store.query(
        f"SELECT count() FROM {store.table('vectors')} FINAL WHERE (session_key, seq) NOT IN "
        f"(SELECT session_key, seq FROM {store.table('events')})"
    )[0][0]
    assert orphans == 0
    assert _counts(store) == (eligible, eligible)


def test_nearest_neighbours_apply_the_type_and_source_filters(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    ingest_into_store([_corpus(tmp_path)])
    embedder = HashingEmbedder()
    vectorize_pending(store, embedder)
    text = "The training loss becomes nan after about 300 steps."
    key, seq = store.query(
        f"SELECT session_key, seq FROM {store.table('events')} WHERE text = {{t:String}} AND type = 'user_input'",
        {"t": text},
    )[0]
    hits = nearest(store, embedder.query(text), types=["user_input"], limit=3)
    assert hits[0][:2] == (key, seq) and hits[0][2] > 0.99
    assert nearest(store, embedder.query(text), types=["assistant_response"], limit=50)[0][:2] != (key, seq)
    assert nearest(store, embedder.query(text), types=["user_input"], limit=3, source="nope") == []
    # Every vectorized type asked for: no type filter, and hits of both types come back.
    both = nearest(
        store, embedder.query(text), types=["assistant_response", "user_input", "tool_call"], limit=50
    )
    assert both[0][:2] == (key, seq)
    found = store.query(
        f"SELECT DISTINCT type FROM {store.table('events')} WHERE (session_key, seq) IN {{refs:Array(Tuple(UInt64, UInt32))}}",
        {"refs": [hit[:2] for hit in both]},
    )
    assert {row[0] for row in found} == {"user_input", "assistant_response"}


def test_the_background_vectorizer_embeds_then_stops_when_asked(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    ingest_into_store([_corpus(tmp_path)])
    eligible = vector_progress(store).eligible
    worker = BackgroundVectorizer(store, HashingEmbedder(), poll_seconds=0.05, batch=4)
    worker.start()
    try:
        for _ in range(2000):
            if vector_progress(store).pending == 0:
                break
            worker.stop.wait(0.05)
    finally:
        worker.shutdown()
    assert worker.last_error is None
    assert vector_progress(store).vectors == eligible


def test_the_backlog_is_embedded_newest_session_first(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    ingest_into_store([_corpus(tmp_path)])
    newest = {
        int(key): at
        for key, at in store.query(f"SELECT session_key, updated_at FROM {store.table('sessions')} FINAL")
    }
    assert len(set(newest.values())) > 3  # sessions of different times, so the order means something
    seen: set[int] = set()
    order: list[int] = []
    while vectorize_pending(store, HashingEmbedder(), batch=4, budget=4) > 0:
        keys = {int(r[0]) for r in store.query(f"SELECT DISTINCT session_key FROM {store.table('vectors')}")}
        order += sorted(keys - seen, key=lambda k: newest[k], reverse=True)
        seen |= keys
    assert len(order) == len(newest) > 3
    times = [newest[k] for k in order]
    assert times == sorted(times, reverse=True)
