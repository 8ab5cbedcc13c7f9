"""Postings sorted by (term, type, session, seq): a search reads only the rows of the event types it asks for.

A search asks for a few event types (by default what people and agents said: ``user_input`` and
``assistant_response``), while most postings of a common word are in tool calls and their outputs: "error" has
243,349 postings at 1,000,000 records and 31,267 of them in those two types. Sorted by term alone, every search
read all of a term's rows and dropped the others by type; with the type second in the key it reads only its own.
Measured with ``tools/bench/textindex.py`` on one kept 1,000,000-record store, the two layouts built from the same
rows and timed alternating (document frequencies, BM25 and the session evidence, same ranked lists): common word
p50 / p95 33.2 / 41.4 -> 27.2 / 30.9 ms, three words 32.9 / 39.2 -> 31.5 / 34.2, rare words equal (13.9 / 14.4 ->
13.7 / 14.0); the table 606.6 -> 629.9 MiB, its build 50.7 -> 51.9 CPU s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from moraine.store.rebuild import rebuild_in_slices

if TYPE_CHECKING:
    from moraine.store.client import Store

VERSION = 17
COLUMNS = ("term", "session_key", "seq", "tf", "doc_len", "type", "timestamp")
SORTING_KEY = "term, type, session_key, seq"
_CREATE = f"""CREATE TABLE IF NOT EXISTS {{target}}
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
ORDER BY ({SORTING_KEY})
SETTINGS old_parts_lifetime = 10, cleanup_delay_period = 1, cleanup_delay_period_random_add = 1,
    max_cleanup_delay_period = 5"""


def apply(store: Store, keep: Callable[[], None]) -> None:
    """Copy the postings into the (term, type, ...) order and swap them in. The ingest's expansion (migration 016's
    materialized view) writes to the table by name, so it writes to the new one after the swap."""
    rebuild_in_slices(store, VERSION, "postings", _CREATE, COLUMNS, keep, sorting_key=SORTING_KEY)
