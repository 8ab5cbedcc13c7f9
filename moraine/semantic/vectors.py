"""Nearest neighbours in ClickHouse: cosine distance over the stored vectors, with the lexical search's filters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moraine.store.client import Store

__all__ = ["nearest"]


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
    """Return up to ``limit`` (session key, seq, cosine similarity), most similar first (ties: newest, then key)."""
    where = ["type IN {types:Array(String)}"]
    params: dict[str, Any] = {"q": list(vector), "types": list(types), "limit": limit}
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
    sql = (
        "SELECT session_key, seq, any(timestamp) AS ts, "
        "round(1 - min(cosineDistance(vector, {q:Array(Float32)})), 6) AS similarity "
        f"FROM {store.table('vectors')} WHERE {' AND '.join(where)} "
        "GROUP BY session_key, seq "
        "ORDER BY similarity DESC, ts DESC NULLS LAST, session_key ASC, seq ASC LIMIT {limit:UInt32}"
    )
    return [(int(k), int(s), float(sim)) for k, s, _ts, sim in store.query(sql, params)]
