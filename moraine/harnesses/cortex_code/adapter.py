"""Cortex Code (source ``cortex-code``): conversation documents -> normalized events.

Records come from ``reader.CortexReader`` in the shared document shape (``moraine.harnesses._shared.document``).
A message is ``{role, id, content: [blocks], user_sent_time}``; blocks are ``text`` (``internalOnly`` or a
``<system-reminder>`` marks text Cortex injected, recorded as system text), ``tool_use`` with its fields under
``tool_use`` (``tool_use_id``, ``name``, ``input``) and ``tool_result`` with its fields under ``tool_result``
(``tool_use_id``, ``name``, ``content`` blocks, ``status``).
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.content_blocks import Blocks
from moraine.harnesses._shared.document_adapter import DocumentAdapter

__all__ = ["CortexAdapter"]


def _injected(block: dict[str, Any]) -> bool:
    return block.get("internalOnly") is True or "<system-reminder>" in str(block.get("text"))


class CortexAdapter(DocumentAdapter):
    """Normalize Cortex Code conversations."""

    harness = "cortex-code"
    blocks = Blocks(nested=True, id_keys=("tool_use_id",), input_keys=("input",), internal=_injected)
