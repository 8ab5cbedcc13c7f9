"""The canonical form of a request: what the envelope echoes and what the request model is built from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from moraine.errors import RequestError

__all__ = ["Canonical", "check_limit"]


@dataclass(frozen=True, slots=True)
class Canonical:
    """``echo`` is JSON (the envelope's ``request``); ``model_input`` adds parsed values (datetimes) for the model."""

    echo: dict[str, Any]
    model_input: dict[str, Any] = field(default_factory=dict)

    def for_model(self) -> dict[str, Any]:
        return {**self.echo, **self.model_input}


def check_limit(limit: int | None, max_results: int, field_name: str = "limit") -> int | None:
    """Return ``limit`` as an int, rejecting values above the configured maximum."""
    if limit is None:
        return None
    if limit > max_results:
        raise RequestError(f"{field_name} must be an integer from 1 to {max_results}", field=field_name)
    return int(limit)
