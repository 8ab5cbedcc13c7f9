"""Check a tool call's arguments and build its canonical request: schema -> defaults -> canonical -> model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from generated.descriptors import DESCRIPTORS
from generated.tools import TOOLS
from generated.validators import VALIDATORS, JsonSchemaValueException
from moraine.handler_api import Settings
from moraine.errors import MoraineError, RequestError
from moraine.server.canonical import CANONICALIZERS
from moraine.server.datetimes import parse_datetime
from moraine.server.schema_errors import argument_error

__all__ = ["CheckedRequest", "arguments_conform", "check_request", "drop_null_options"]


@dataclass(frozen=True, slots=True)
class CheckedRequest:
    """A request ready for its handler: the canonical JSON (echoed in envelopes) and the generated model."""

    canonical: dict[str, Any]
    model: BaseModel


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
    and is still accepted."""
    required = set(schema.get("required", ()))
    return {name: value for name, value in arguments.items() if value is not None or name in required}


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


def check_request(tool: str, arguments: Any, settings: Settings) -> CheckedRequest:
    """Validate ``arguments`` of ``tool`` and return its canonical request.

    Raises:
        RequestError: (or a subclass) naming the field at fault.
        MoraineError: the canonical request does not satisfy the spec (a bug in Moraine, internal_error).
    """
    contract = TOOLS[tool]
    input_schema = DESCRIPTORS[tool]["inputSchema"]
    if not isinstance(arguments, Mapping):
        raise RequestError("arguments must be a JSON object")
    arguments = drop_null_options(arguments, input_schema)
    try:
        VALIDATORS[contract.arguments_validator](arguments)
    except JsonSchemaValueException as exc:
        raise argument_error(exc, input_schema) from exc
    canonical = CANONICALIZERS[tool](_with_defaults(arguments, input_schema), settings)
    try:
        VALIDATORS[contract.request_validator](canonical.echo)
        model = contract.request_model.model_validate(canonical.for_model())
    except (JsonSchemaValueException, ValidationError) as exc:
        raise MoraineError(f"canonical {tool} request does not match the spec: {exc}") from exc
    return CheckedRequest(canonical.echo, model)
