"""Read side of the store: the queries behind search_sessions, open and list_sessions.

One module per concern: ``search`` (BM25 + hydration), ``snippets``, ``sessions``, ``turns``, ``events``,
``listing`` (+ ``labels``), ``cursors`` (signed continuation tokens) and ``timestamps`` (RFC 3339 rendering).
Every query is a key-range lookup on the tables of ``migrations/001_initial.sql``; nothing here formats envelopes.
"""

from __future__ import annotations

__all__: list[str] = []
