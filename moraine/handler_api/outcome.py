"""What a tool is given (its ``ParsedRequest``), what it returns (``Outcome``) and how the server holds it
(``HandlerEntry``, one per tool)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from moraine.handler_api.deps import Deps, Settings

__all__ = ["Handler", "HandlerEntry", "Outcome", "Parse", "ParsedRequest", "data_json"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a handler: ``data`` (the generated data model of its tool) and ``warnings`` (plain text)."""

    data: BaseModel
    warnings: list[str] = field(default_factory=list)


def data_json(data: BaseModel) -> dict[str, Any]:
    """Return a response's ``data`` as the server sends it: the fields the handler set (its nulls included, the
    fields it left unset left out), by their contract names."""
    return data.model_dump(mode="json", by_alias=True, exclude_unset=True)


class ParsedRequest(Protocol):
    """A tool's arguments parsed into typed values; ``echo`` is the canonical request JSON the envelope carries,
    derived from the same values the handler receives."""

    def echo(self) -> dict[str, Any]: ...


# A parse: (arguments that passed the tool's schema, with every default filled, settings) -> the parsed request;
# every request rule of the tool lives there and raises moraine.errors RequestError (or a subclass) naming the field.
Parse = Callable[[dict[str, Any], Settings], ParsedRequest]
# A handler: (its tool's parsed request, deps) -> Outcome; raises moraine.errors exceptions for failures that need
# the store (not found, a stale cursor), never for an argument rule.
Handler = Callable[[Any, Deps], Outcome]


@dataclass(frozen=True, slots=True)
class HandlerEntry:
    """A tool's parse of its arguments, its data model and the function that answers the parsed request."""

    parse: Parse
    data_model: type[BaseModel]
    handle: Handler
