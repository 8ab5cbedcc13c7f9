"""What every handler returns: the tool's generated ``data`` model plus warnings for the envelope."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

__all__ = ["Outcome"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a handler: ``data`` (the generated data model of its tool) and ``warnings`` (plain text)."""

    data: BaseModel
    warnings: list[str] = field(default_factory=list)
