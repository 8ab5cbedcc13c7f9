"""Posit Assistant (source ``posit-assistant``): conversation folders -> normalized events.

Records come from ``reader.PositAssistantReader`` in the shared document shape (``moraine.harnesses._shared.document``).
Model messages are the AI SDK's: user content a string, assistant blocks ``reasoning``, ``text`` and ``tool-call``
(``toolCallId``, ``toolName``, ``input``), ``tool`` messages with ``tool-result`` blocks (``toolCallId``,
``toolName``, ``output: {type, value}``); usage counts ``inputTokens``, ``outputTokens``, ``cacheReadTokens``,
``cacheWriteTokens``.
"""

from __future__ import annotations

from moraine.harnesses._shared.content_blocks import AI_SDK_BLOCKS
from moraine.harnesses._shared.document_adapter import DocumentAdapter
from moraine.harnesses._shared.usage import CAMEL_CASE_USAGE

__all__ = ["PositAssistantAdapter"]


class PositAssistantAdapter(DocumentAdapter):
    """Normalize Posit Assistant conversations."""

    harness = "posit-assistant"
    blocks = AI_SDK_BLOCKS
    versions = frozenset({"3"})
    usage_keys = CAMEL_CASE_USAGE
