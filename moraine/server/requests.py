"""Check a tool call's arguments and parse them: schema -> nulls dropped -> defaults -> the tool's parse.

Every request rule beyond the published schema lives in the tool's parse (declared beside its handler, reached
through its ``HandlerEntry``); the canonical request echoed in envelopes is the parsed request's ``echo()``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import fastjsonschema

from generated.descriptors import DESCRIPTORS
from generated.tools import TOOLS
from generated.validators import VALIDATORS, JsonSchemaValueException
from moraine.errors import MoraineError, RequestError
from moraine.handler_api import Parse, ParsedRequest, Settings
from moraine.server.datetimes import parse_datetime
from moraine.server.schema_errors import SHAPED_FIELDS, argument_error, is_shape_error

__all__ = ["CheckedRequest", "arguments_conform", "check_request", "drop_null_options"]


@dataclass(frozen=True, slots=True)
class CheckedRequest:
    """A request ready for its handler: the canonical JSON (echoed in envelopes) and the parsed request."""

    canonical: dict[str, Any]
    parsed: ParsedRequest


def _with_defaults(arguments: Mapping[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``arguments`` with every property present: missing or null ones take the schema default (or null)."""
    out = dict(arguments)
    for name, prop in schema.get("properties", {}).items():
        if out.get(name) is None:
            out[name] = prop.get("default")
    return out


def drop_null_options(arguments: Mapping[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``arguments`` without the optional ones given as null.

    The published schemas give each optional field its one plain type (clients that convert arguments by type read
    it, and such a field may simply be left out); a caller that sends null for one means the same as leaving it out,
    and is still accepted. A null under a name the schema does not know stays: it is an unknown field."""
    optional = set(schema.get("properties", {})) - set(schema.get("required", ()))
    return {name: value for name, value in arguments.items() if value is not None or name not in optional}


def arguments_conform(tool: str, arguments: Any) -> bool:
    """Return whether ``arguments`` match ``tool``'s published arguments schema (what the facade's 400 means).

    The ``date-time`` format is checked too (the fast validator only checks its shape: ``0000-00-00T...`` passes).
    """
    if not isinstance(arguments, Mapping):
        return False
    arguments = drop_null_options(arguments, DESCRIPTORS[tool]["inputSchema"])
    try:
        VALIDATORS[TOOLS[tool].arguments_validator](arguments)
    except JsonSchemaValueException:
        return False
    for name, prop in DESCRIPTORS[tool]["inputSchema"].get("properties", {}).items():
        value = arguments.get(name)
        if prop.get("format") == "date-time" and isinstance(value, str):
            try:
                parse_datetime(value, name)
            except RequestError:
                return False
    return True


@cache
def _unshaped(tool: str) -> Callable[[Any], Any]:
    """Return a validator of ``tool``'s arguments schema without the ID and cursor shapes."""
    schema = copy.deepcopy(dict(DESCRIPTORS[tool]["inputSchema"]))
    for name in SHAPED_FIELDS & set(schema.get("properties", {})):
        for keyword in ("pattern", "maxLength"):
            schema["properties"][name].pop(keyword, None)
    validate: Callable[[Any], Any] = fastjsonschema.compile(schema, use_default=False)
    return validate


def _structure_error(
    tool: str, arguments: Mapping[str, Any], parse: Parse, settings: Settings
) -> MoraineError | None:
    """Return what is wrong with the request's structure when an ID or cursor has the wrong shape: the arguments
    schema without those shapes, then the tool's parse (an id with a cursor, a limit without an id), so that a
    request with both faults gets the same answer as before the shapes were published. None: only the shape."""
    input_schema = DESCRIPTORS[tool]["inputSchema"]
    try:
        _unshaped(tool)(dict(arguments))
    except JsonSchemaValueException as exc:
        return argument_error(exc, input_schema, tool)
    try:
        parse(_with_defaults(arguments, input_schema), settings)
    except MoraineError as exc:
        return exc
    return None


def check_request(tool: str, arguments: Any, parse: Parse, settings: Settings) -> CheckedRequest:
    """Validate ``arguments`` of ``tool`` against its schema and parse them with the tool's ``parse``.

    Raises:
        RequestError: (or a subclass) naming the field at fault.
        MoraineError: the parsed request's echo does not satisfy the spec (a bug in Moraine, internal_error).
    """
    contract = TOOLS[tool]
    input_schema = DESCRIPTORS[tool]["inputSchema"]
    if not isinstance(arguments, Mapping):
        raise RequestError("arguments must be a JSON object")
    arguments = drop_null_options(arguments, input_schema)
    try:
        VALIDATORS[contract.arguments_validator](arguments)
    except JsonSchemaValueException as exc:
        error = argument_error(exc, input_schema, tool)
        if is_shape_error(
            exc
        ):  # the request's structure is judged first (unknown fields, id with cursor, ...)
            raise _structure_error(tool, arguments, parse, settings) or error from exc
        raise error from exc
    parsed = parse(_with_defaults(arguments, input_schema), settings)
    echo = parsed.echo()
    try:
        VALIDATORS[contract.request_validator](echo)
    except JsonSchemaValueException as exc:
        raise MoraineError(f"canonical {tool} request does not match the spec: {exc}") from exc
    return CheckedRequest(echo, parsed)
