"""Nearest neighbours in ClickHouse: cosine distance over the stored vectors, with the lexical search's filters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moraine.semantic.vectorizer import VECTOR_TYPES
from moraine.store.client import Store

__all__ = ["nearest", "similarities_around"]


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
) -> list[tuple[int, int, float]]:
    """Return up to ``limit`` (session key, seq, cosine similarity), most similar first (approximate: HNSW)."""
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
    out: list[tuple[int, int, float]] = []
    seen: set[tuple[int, int]] = set()
    for key, seq, distance in store.query(sql, params):
        ref = (int(key), int(seq))
        if ref not in seen:  # a vector written twice (a crash before its watermark) until the merge drops it
            seen.add(ref)
            out.append((ref[0], ref[1], round(1.0 - float(distance), 6)))
    return out


# Seqs per bucket: a candidate's neighbours are looked for in its bucket and the two beside it.
_NEIGHBOURHOOD = 16


def similarities_around(
    store: Store, vector: Sequence[float], refs: Sequence[tuple[int, int]]
) -> dict[int, list[tuple[int, float]]]:
    """Return, per session, (seq, cosine similarity) of the stored vectors at and around ``refs`` (session key,
    seq), ordered by seq: every vector in a ref's bucket of 16 seqs and the two beside it (so at least 16 seqs
    either side of it).

    The condition is a set lookup on the sort key, so only the granules holding the refs are read; a granule holds
    8,192 vectors, so scattered refs touch most of a small table (the cost is in the README).
    """
    if not refs:
        return {}
    buckets = sorted(
        {
            (key, seq // _NEIGHBOURHOOD + d)
            for key, seq in refs
            for d in (-1, 0, 1)
            if seq // _NEIGHBOURHOOD + d >= 0
        }
    )
    rows = store.query(
        "SELECT session_key, seq, cosineDistance(vector, {q:Array(Float32)}) AS distance "
        f"FROM {store.table('vectors')} "
        "WHERE (session_key, intDiv(seq, {size:UInt32})) IN {buckets:Array(Tuple(UInt64, UInt32))} "
        "ORDER BY session_key, seq",
        {"q": list(vector), "size": _NEIGHBOURHOOD, "buckets": buckets},
    )
    out: dict[int, list[tuple[int, float]]] = {}
    for key, seq, distance in rows:
        around = out.setdefault(int(key), [])
        if not around or around[-1][0] != int(seq):  # a vector written twice until the merge drops one
            around.append((int(seq), round(1.0 - float(distance), 6)))
    return out
