"""The adapter contract: each harness folder (``moraine/harnesses/<name>/``) names one.

An adapter is pure: given one raw record and the per-stream state it left behind, it returns the normalized items
for that record. The state is a JSON-serializable dict that the pipeline stores in the stream's checkpoint, so a
stream resumes mid-file exactly where it stopped (it is how an adapter remembers the session id of a Codex rollout,
or the last mirrored message it must not emit twice). Adapters never raise on bad input: they return
``IngestError`` items for what they cannot read, and whatever else they could.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from moraine.harness_api.model import Emitted, RawRecord

__all__ = ["Adapter", "StreamContext"]


@dataclass(slots=True)
class StreamContext:
    """What an adapter may know about the stream it reads: the file, the source, and its own saved state."""

    path: Path
    source: str
    state: dict[str, Any] = field(default_factory=dict)


class Adapter(Protocol):
    """A harness's normalizer (see the module docstring)."""

    harness: str

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the events, session metadata and ingest errors that ``record`` yields."""
        ...
