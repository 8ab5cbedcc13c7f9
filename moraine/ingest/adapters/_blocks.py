"""What the adapters of reader-built records share: the holder-and-body shape, and Anthropic-style text blocks.

Readers of whole documents (a thread file, a conversation folder) hand each item over beside the document it belongs
to: ``held`` splits such a record into the holder's id (the session), the holder and the item, or reports it.
``spoken`` reads the ``text`` and ``thinking`` blocks most harnesses keep in Anthropic's shape (``{type: "text",
text}``, ``{type: "thinking", thinking}``) into an answer or a reasoning event.
"""

from __future__ import annotations

from typing import Any

from moraine.ingest.adapters._events import RecordEvents
from moraine.ingest.adapters.fields import as_dict, as_str
from moraine.ingest.model import Event, IngestError

__all__ = ["held", "spoken"]


def held(
    data: dict[str, Any], holder: str, item: str, what: str
) -> tuple[str, dict[str, Any], dict[str, Any]] | IngestError:
    """Return ``(holder id, holder, item)`` of a record, or the error for one whose holder has no id or item no body."""
    outer, inner = as_dict(data.get(holder)), as_dict(data.get(item))
    session = as_str(outer.get("id"))
    if not session or not inner:
        return IngestError("malformed_record", f"{what} without a {holder} id or body")
    return session, outer, inner


def spoken(block: dict[str, Any], base: RecordEvents, model: str | None) -> Event | None:
    """Return the answer of a non-empty ``text`` block or the reasoning of a ``thinking`` block; None otherwise."""
    kind = block.get("type")
    if kind == "text" and as_str(block.get("text")):
        return base.answer(block["text"], model)
    if kind == "thinking" and as_str(block.get("thinking")):
        return base.reasoning(block["thinking"], model)
    return None
