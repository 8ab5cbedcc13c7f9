"""What an adapter checks before it reads a record: that it is a JSON object, or a reader's record of its kind.

Line-per-record harnesses write JSON objects, one a line: ``ObjectAdapter`` reports anything else (and, for the
adapters that render whole records, an object nested too deeply) and hands each object to ``normalize_object``.
Readers of application stores build their own records and tag each with its kind under ``record``:
``TaggedAdapter`` reads each record with the function its ``kinds`` name for its tag and reports any other as
unknown (a subclass closes its module, after the functions it names).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from moraine.harnesses._shared.depth import depth_error
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Emitted, IngestError, RawRecord

__all__ = ["ObjectAdapter", "TaggedAdapter", "TaggedReader"]

TaggedReader = Callable[[dict[str, Any], StreamContext], list[Emitted]]


class ObjectAdapter:
    """An adapter whose records are JSON objects (see the module docstring)."""

    harness: str
    # Whether records nested deeper than ``_depth.MAX_DEPTH`` are reported instead of read.
    guard_depth: ClassVar[bool] = False

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the events, session metadata and ingest errors of one record."""
        data = record.data
        if not isinstance(data, dict):
            return [IngestError("malformed_record", f"expected a JSON object, got {type(data).__name__}")]
        too_deep = depth_error(data) if self.guard_depth else None
        if too_deep is not None:
            return [too_deep]
        return self.normalize_object(data, ctx)

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one record that is a JSON object."""
        raise NotImplementedError


class TaggedAdapter:
    """An adapter of the records a reader builds, tagged by kind under ``record`` (see the module docstring)."""

    harness: str
    kinds: ClassVar[Mapping[str, TaggedReader]]  # the records it reads: tag -> the function that reads one
    untagged: ClassVar[str]  # the error detail for any other record

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the events, session metadata and ingest errors of one record."""
        data = record.data
        tag = data.get("record") if isinstance(data, dict) else None
        read = self.kinds.get(tag) if isinstance(tag, str) else None
        if read is None:
            return [IngestError("unknown_record", self.untagged)]
        return read(data, ctx)
