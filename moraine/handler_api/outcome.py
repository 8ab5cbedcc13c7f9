"""What a handler returns (``Outcome``) and how the server holds it (``HandlerEntry``, one per tool)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from moraine.handler_api.deps import Deps

__all__ = ["Handler", "HandlerEntry", "Outcome", "data_json"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a handler: ``data`` (the generated data model of its tool) and ``warnings`` (plain text)."""

    data: BaseModel
    warnings: list[str] = field(default_factory=list)


def data_json(data: BaseModel) -> dict[str, Any]:
    """Return a response's ``data`` as the server sends it: the fields the handler set (its nulls included, the
    fields it left unset left out), by their contract names."""
    return data.model_dump(mode="json", by_alias=True, exclude_unset=True)


# A handler: (validated canonical request model, deps) -> Outcome; raises moraine.errors exceptions for failures.
Handler = Callable[[Any, Deps], Outcome]


@dataclass(frozen=True, slots=True)
class HandlerEntry:
    """A tool's canonical request model, its data model and the function that answers it."""

    request_model: type[BaseModel]
    data_model: type[BaseModel]
    handle: Handler
