"""DeepSeek TUI (sources ``deepseek-tui``, ``codewhale``): session documents -> normalized events.

Records come from ``reader.DeepSeekTuiReader`` in the shared document shape (``moraine.harnesses._shared.document``).
Content blocks are Anthropic's: ``text``, ``thinking``, ``tool_use``/``server_tool_use`` (``id``, ``name``,
``input``) and ``tool_result``-like blocks (``tool_use_id``, ``content``/``result``/``output``, ``is_error``).
"""

from __future__ import annotations

from moraine.harnesses._shared.content_blocks import Blocks
from moraine.harnesses._shared.document_adapter import DocumentAdapter

__all__ = ["DeepSeekTuiAdapter"]


class DeepSeekTuiAdapter(DocumentAdapter):
    """Normalize DeepSeek TUI session documents."""

    harness = "deepseek-tui"
    blocks = Blocks(
        result_types=frozenset({"tool_result", "tool_search_tool_result", "code_execution_tool_result"})
    )
    versions = frozenset({1})
