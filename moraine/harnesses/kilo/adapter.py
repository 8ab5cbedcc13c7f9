"""Kilo's adapter: OpenCode parts from kilo.db and Cline-family UI messages from the legacy task folders.

Each record is read by the adapter of the format its tag names. On top of what the OpenCode adapter reads, a
``step-finish`` part's ``tokens`` (``input``, ``output``, ``reasoning``, ``cache: {read, write}``: the model call that
step made; input without the cached, output without the reasoning) become token usage: on the event that ends the turn, else on a runtime event of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from moraine.harnesses._shared.cline_family.adapter import ClineFamilyAdapter
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import TaggedAdapter, TaggedReader
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_str, parse_timestamp
from moraine.harnesses._shared.opencode_format.adapter import OpenCodeAdapter
from moraine.harness_api.model import Emitted, Event, EventType, RawRecord, TokenUsage

__all__ = ["KiloAdapter"]


class KiloAdapter(TaggedAdapter):
    """Normalize both of Kilo's formats (see the module docstring)."""

    harness = "kilo"
    kinds: ClassVar[dict[str, TaggedReader]] = {**OpenCodeAdapter.kinds, **ClineFamilyAdapter.kinds}
    untagged = "neither a kilo.db part nor a legacy task UI message"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return what the record's format reads, with a finished step's token usage."""
        out = list(super().normalize(record, ctx))
        data = record.data if isinstance(record.data, dict) else {}
        part = as_dict(as_dict(data.get("part")).get("data"))
        usage = _step_usage(part) if part.get("type") == "step-finish" else None
        if usage is None:
            return out
        carriers = [item for item in out if isinstance(item, Event)]
        if carriers:
            carriers[-1].usage = usage
            return out
        session = as_str(as_dict(data.get("session")).get("id"))
        if session is None:
            return out
        timestamp, _ = parse_timestamp(as_dict(data.get("part")).get("time_created"))
        step = RecordEvents(
            session, timestamp, provenance={"part_type": "step-finish", "reason": part.get("reason")}
        )
        return [*out, step.event(EventType.RUNTIME, text=f"step finished: {part.get('reason')}", usage=usage)]


def _step_usage(part: dict[str, Any]) -> TokenUsage | None:
    tokens = as_dict(part.get("tokens"))
    cache = as_dict(tokens.get("cache"))
    # Kilo stores what OpenCode's getUsage computes: ``input`` without the cache reads and writes, and ``output``
    # without the ``reasoning`` (billed as output): Moraine's output holds it (``TokenUsage``).
    output, reasoning = as_int(tokens.get("output")), as_int(tokens.get("reasoning"))
    usage = TokenUsage(
        input=as_int(tokens.get("input")),
        output=None if output is None and reasoning is None else (output or 0) + (reasoning or 0),
        cache_read=as_int(cache.get("read")),
        cache_write=as_int(cache.get("write")),
        reasoning=reasoning,
    )
    return None if usage == TokenUsage() else usage
