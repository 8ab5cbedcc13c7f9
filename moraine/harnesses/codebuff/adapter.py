"""Codebuff (source ``codebuff``): chats read by ``reader.CodebuffReader`` as documents of content blocks.

The reader turns Codebuff's ``user``/``ai``/``error`` messages into user, assistant and system messages of
Anthropic-style blocks (reasoning text as thinking, each tool block as a call and, with its output, a result);
the shared document adapter (``moraine.harnesses._shared.document``) reads them.
"""

from __future__ import annotations

from moraine.harnesses._shared.document_adapter import DocumentAdapter

__all__ = ["CodebuffAdapter"]


class CodebuffAdapter(DocumentAdapter):
    """Normalize Codebuff chats."""

    harness = "codebuff"
