"""The statement behind the ingest's stream checkpoints (``moraine.ingest.checkpoints``): the latest of a source."""

from __future__ import annotations

from typing import Any

from moraine.store.client import Store

__all__ = ["checkpoint_rows"]


def checkpoint_rows(store: Store, source: str) -> list[tuple[Any, ...]]:
    """Return the latest checkpoint of every stream of ``source``: (stream_id, source, path, file_identity, offset,
    line_no, state, generation, revision)."""
    return [
        tuple(row)
        for row in store.query(
            f"SELECT stream_id, source, path, file_identity, offset, line_no, state, generation, revision "
            f"FROM {store.table('checkpoints')} FINAL WHERE source = {{source:String}}",
            {"source": source},
        )
    ]
