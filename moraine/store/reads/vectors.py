"""Nearest neighbours in ClickHouse: cosine distance over the stored vectors, with the lexical search's filters."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from moraine.store.vectorizing import VECTOR_TYPES
from moraine.store.client import Store
from moraine.store.reads.scored import Scored

__all__ = ["NEIGHBOURHOOD", "buckets_around", "nearest", "similarities_in"]


def nearest(
    store: Store,
    vector: Sequence[float],
    *,
    types: Sequence[str],
    limit: int,
    harness: str | None = None,
    source: str | None = None,
    session_key: int | None = None,
    turn_seq: int | None = None,
    extra: tuple[str, dict[str, Any]] | None = None,
) -> list[Scored]:
    """Return up to ``limit`` events scored by cosine similarity, most similar first (approximate: HNSW)."""
    where: list[str] = []
    params: dict[str, Any] = {"q": list(vector), "limit": limit}
    if set(VECTOR_TYPES) - set(types):  # only vectorized types are stored: all of them need no filter
        where.append("type IN {types:Array(String)}")
        params["types"] = list(types)
    for column, value, kind in (
        ("harness", harness, "String"),
        ("source", source, "String"),
        ("session_key", session_key, "UInt64"),
        ("turn_seq", turn_seq, "UInt32"),
    ):
        if value is not None:
            where.append(f"{column} = {{{column}:{kind}}}")
            params[column] = value
    if extra is not None:  # a further condition on session_key with its own parameters (a project scope)
        where.append(extra[0])
        params.update(extra[1])
    # The HNSW index (migration 006) serves exactly this shape: ORDER BY cosineDistance(...) ASC LIMIT k, no GROUP BY.
    condition = f"WHERE {' AND '.join(where)} " if where else ""
    sql = (
        "SELECT session_key, seq, cosineDistance(vector, {q:Array(Float32)}) AS distance "
        f"FROM {store.table('vectors')} {condition}"
        "ORDER BY distance ASC LIMIT {limit:UInt32}"
    )
    out: list[Scored] = []
    seen: set[tuple[int, int]] = set()
    for key, seq, distance in store.query(sql, params):
        ref = (int(key), int(seq))
        if ref not in seen:  # a vector written twice (a crash before its watermark) until the merge drops it
            seen.add(ref)
            out.append(Scored(ref[0], ref[1], round(1.0 - float(distance), 6)))
    return out


# Seqs per bucket: a candidate's neighbours are looked for in its bucket and the two beside it.
NEIGHBOURHOOD = 16


def buckets_around(refs: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """Return the (session key, bucket) pairs that hold each ref's neighbourhood: its bucket of ``NEIGHBOURHOOD``
    seqs and the two beside it (so at least 16 seqs either side of it)."""
    return {
        (key, seq // NEIGHBOURHOOD + d)
        for key, seq in refs
        for d in (-1, 0, 1)
        if seq // NEIGHBOURHOOD + d >= 0
    }


def similarities_in(
    store: Store, vector: Sequence[float], buckets: Iterable[tuple[int, int]]
) -> dict[tuple[int, int], float]:
    """Return the cosine similarity of every stored vector in ``buckets`` (see ``buckets_around``), by (session
    key, seq).

    The condition is a set lookup on the sort key, so only the granules holding the buckets are read (256 vectors
    each since migration 010; the cost is in the README).
    """
    wanted = sorted(buckets)
    if not wanted:
        return {}
    rows = store.query(
        "SELECT session_key, seq, cosineDistance(vector, {q:Array(Float32)}) AS distance "
        f"FROM {store.table('vectors')} "
        "WHERE (session_key, intDiv(seq, {size:UInt32})) IN {buckets:Array(Tuple(UInt64, UInt32))}",
        {"q": list(vector), "size": NEIGHBOURHOOD, "buckets": wanted},
    )
    # A vector written twice (until the merge drops one) has the same similarity both times.
    return {(int(key), int(seq)): round(1.0 - float(distance), 6) for key, seq, distance in rows}
