"""What the adapters of reader-built records share: the holder-and-item shape, and Anthropic-style text blocks.

Readers of whole documents (a thread file, a conversation folder, a transcript) hand each item over beside the
document it belongs to, ``{<holder>: {id, title, cwd, model, started, ...}, <item>: {...}}``: ``held`` splits such a
record into a ``Held`` (the holder's id is the session) or reports it; ``announce`` turns the holder's ``title``,
``cwd``, ``model`` and ``started`` into session metadata when they change; ``holding`` makes a ``TaggedAdapter``
reader of both, so the function it wraps reads the item alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from moraine.harnesses._shared.memory import changed
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, read_timestamp
from moraine.harness_api.model import Emitted, IngestError, SessionInfo

__all__ = ["Held", "announce", "held", "holding"]


@dataclass(frozen=True, slots=True)
class Held:
    """An item of a reader-built record, with its holder and the holder's id (the session)."""

    session: str
    holder: dict[str, Any]
    item: dict[str, Any]
    record: dict[str, Any]  # the whole record (for what rides beside the holder and the item)


def held(data: dict[str, Any], holder: str, item: str, what: str) -> Held | IngestError:
    """Return the item of a record with its holder, or the error for one whose holder has no id or item no body."""
    outer, inner = as_dict(data.get(holder)), as_dict(data.get(item))
    session = as_str(outer.get("id"))
    if not session or not inner:
        return IngestError("malformed_record", f"{what} without a {holder} id or body")
    return Held(session, outer, inner, data)


def announce(state: dict[str, Any], session: str, holder: dict[str, Any]) -> list[Emitted]:
    """Return the session metadata of ``holder`` (and any error reading its start) when it changed in ``state``."""
    fields = {key: as_str(holder.get(key)) for key in ("title", "cwd", "model")}
    if not changed(state, "holder", [session, fields]):
        return []
    out: list[Emitted] = []
    started = read_timestamp(holder.get("started"), out)
    out.append(SessionInfo(session=session, started_at=started, **fields))
    return out


def holding(
    holder: str, item: str, what: str, read: Callable[[Held, StreamContext], list[Emitted]]
) -> Callable[[dict[str, Any], StreamContext], list[Emitted]]:
    """Return a reader of ``{holder: {id, ...}, item: {...}}`` records: the holder announced, the item ``read``."""

    def read_record(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        found = held(data, holder, item, what)
        if isinstance(found, IngestError):
            return [found]
        return announce(ctx.state, found.session, found.holder) + read(found, ctx)

    return read_record
