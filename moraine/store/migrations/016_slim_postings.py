"""Postings keep only what ranking reads: term, event (session key, seq), term frequency, length, type, timestamp.

The event's turn, harness, source, stream and offset were repeated on each of its ~75 postings rows: 382 of the
table's 975 MiB at 1,000,000 records, rewritten by every merge of the bulk load. A search now finds a harness's or a
source's sessions in ``sessions`` and a turn's events in ``events``; recovery finds an interrupted publish's postings
through its events (``moraine.store.recovery``). Ingest writes the same shape to ``postings_in``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from moraine.store.rebuild import rebuild_in_slices

if TYPE_CHECKING:
    from moraine.store.client import Store

VERSION = 16
COLUMNS = ("term", "session_key", "seq", "tf", "doc_len", "type", "timestamp")
_CREATE = """CREATE TABLE IF NOT EXISTS {target}
(
    term String,
    session_key UInt64,
    seq UInt32,
    tf UInt16,
    doc_len UInt32,
    type LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC'))
)
ENGINE = MergeTree
ORDER BY (term, session_key, seq)
SETTINGS old_parts_lifetime = 10, cleanup_delay_period = 1, cleanup_delay_period_random_add = 1,
    max_cleanup_delay_period = 5"""


def apply(store: Store, keep: Callable[[], None]) -> None:
    """Stop the old expansion, copy the postings into the slim layout, and expand into it from now on."""
    store.command(f"DROP VIEW IF EXISTS {store.table('postings_in_expand')}")
    store.command(f"DROP TABLE IF EXISTS {store.table('postings_in')}")
    rebuild_in_slices(store, VERSION, "postings", _CREATE, COLUMNS, keep)
    # One row per event (its distinct terms joined by '\n', their frequencies in the same order), expanded into
    # one postings row per term inside ClickHouse as part of the same insert (as migration 005 did).
    store.command(
        f"CREATE TABLE {store.table('postings_in')} (terms String, tfs Array(UInt32), session_key UInt64, "
        "seq UInt32, doc_len UInt32, type LowCardinality(String), timestamp Nullable(DateTime64(3, 'UTC'))) "
        "ENGINE = Null"
    )
    store.command(
        f"CREATE MATERIALIZED VIEW {store.table('postings_in_expand')} TO {store.table('postings')} AS "
        "SELECT term, session_key, seq, toUInt16(least(tf, 65535)) AS tf, doc_len, type, timestamp "
        f"FROM {store.table('postings_in')} ARRAY JOIN splitByChar('\\n', terms) AS term, tfs AS tf"
    )
