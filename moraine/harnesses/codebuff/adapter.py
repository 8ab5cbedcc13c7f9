"""Codebuff (source ``codebuff``): chats read by ``reader.CodebuffReader`` as documents of content blocks.

The reader turns Codebuff's ``user``/``ai``/``error`` messages into user, assistant and system messages of
Anthropic-style blocks (reasoning text as thinking, each tool block as a call and, with its output, a result);
the shared document adapter (``moraine.ingest.adapters._document``) reads them.
"""

from __future__ import annotations

from moraine.ingest.adapters._document import DocumentAdapter

__all__ = ["CodebuffAdapter"]


class CodebuffAdapter(DocumentAdapter):
    """Normalize Codebuff chats."""

    harness = "codebuff"
