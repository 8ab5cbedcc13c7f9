"""Texts the store holds in place of content it does not keep: written by ingest, shown by the read side.

A module of its own so the store and the handlers can use them without importing ``moraine.ingest``.
"""

from __future__ import annotations

__all__ = ["ENCRYPTED_REASONING_PLACEHOLDER"]

# The summary (and search text) of a reasoning event whose content the harness stored encrypted.
ENCRYPTED_REASONING_PLACEHOLDER = "[encrypted reasoning omitted]"
