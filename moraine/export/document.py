"""Export one session or turn in a named format: walk it through ``open``, then print it."""

from __future__ import annotations

from collections.abc import Callable

from moraine.server.service import ToolCall
from moraine.export.formats import FORMATS
from moraine.export.html import render_html
from moraine.export.markdown import render_markdown
from moraine.export.walk import Transcript, walk_transcript

__all__ = ["export_document"]

_RENDERERS: dict[str, Callable[[Transcript], str]] = {"md": render_markdown, "html": render_html}
assert tuple(sorted(_RENDERERS)) == FORMATS, "every export format needs a renderer (moraine.export.formats)"


async def export_document(call: ToolCall, target_id: str, document_format: str, page_size: int) -> str:
    """Return the session or turn ``target_id`` as a ``document_format`` document (``md`` or ``html``).

    Raises:
        ExportError: a read failed or the ID is an event's.
        ValueError: ``document_format`` is not one of ``FORMATS``.
    """
    render = _RENDERERS.get(document_format)
    if render is None:
        raise ValueError(f"unknown export format {document_format!r}; use one of {', '.join(FORMATS)}")
    return render(await walk_transcript(call, target_id, page_size))
