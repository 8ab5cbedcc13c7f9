"""Turn a fast-validator failure on a tool's arguments into a specific, field-naming request error."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from fastjsonschema import JsonSchemaValueException

from moraine.errors import InvalidIdError, RequestError, UnsupportedEventTypeError
from moraine.ids import NON_SPACE
from moraine.store.reads.cursors import malformed_cursor

__all__ = ["SHAPED_FIELDS", "argument_error", "enum_values", "is_shape_error"]

Schema = Mapping[str, Any]
_FIELD = re.compile(r"^data\.([A-Za-z0-9_]+)")
_BLANK_PATTERN = NON_SPACE  # a provided value must hold a non-space character
_EVENT_TYPES = "event_types"  # the interface document gives bad items of this field their own error code
_ID_FIELDS = frozenset({"id", "within_id"})  # a malformed ID is invalid_id (a blank one invalid_request)
_CURSOR = "cursor"
SHAPED_FIELDS = _ID_FIELDS | {_CURSOR}  # their patterns give a value's shape, not the request's structure
_SHAPE_RULES = frozenset({"pattern", "maxLength"})


def is_shape_error(exc: JsonSchemaValueException) -> bool:
    """Tell whether ``exc`` is about the shape of a non-blank ID or cursor (not a blank one, not the structure)."""
    match = _FIELD.match(exc.name or "")
    return (
        match is not None
        and match.group(1) in SHAPED_FIELDS
        and exc.rule in _SHAPE_RULES
        and isinstance(exc.value, str)
        and bool(exc.value.strip())
    )


_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "an array",
    "object": "an object",
    "null": "null",
}


def _resolve(schema: Schema, node: Schema) -> Schema:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        resolved: Schema = schema.get("$defs", {})[ref.removeprefix("#/$defs/")]
        return resolved
    return node


def enum_values(schema: Schema, node: Schema) -> list[str]:
    """Return the enum values a property (or array item) schema accepts, through ``$ref`` and ``anyOf``."""
    node = _resolve(schema, node)
    if "enum" in node:
        return [str(v) for v in node["enum"]]
    for option in node.get("anyOf", []):
        values = enum_values(schema, option)
        if values:
            return values
    items = node.get("items")
    return enum_values(schema, items) if isinstance(items, Mapping) else []


def _types(schema: Schema, node: Schema) -> list[str]:
    node = _resolve(schema, node)
    kinds = node.get("type")
    if isinstance(kinds, str):
        return [kinds]
    if isinstance(kinds, list):
        return [str(k) for k in kinds]
    return [t for option in node.get("anyOf", []) for t in _types(schema, option)]


def argument_error(exc: JsonSchemaValueException, schema: Schema, tool: str) -> RequestError:
    """Return the request error for the first schema violation ``exc`` found in ``tool``'s arguments."""
    properties: Mapping[str, Schema] = schema.get("properties", {})
    match = _FIELD.match(exc.name or "")
    if match is None:
        return _top_level_error(exc, properties)
    field = match.group(1)
    node = properties.get(field, {})
    rule = exc.rule or ""
    if field == _EVENT_TYPES and (exc.name or "").startswith(f"data.{field}["):
        supported = enum_values(schema, node)
        return UnsupportedEventTypeError(
            f"unsupported event type: {exc.value}", field=field, supported=supported
        )
    if field == _EVENT_TYPES and rule == "minItems":
        supported = enum_values(schema, node)
        return RequestError(
            "event_types must contain at least one event type", field=field, supported=supported
        )
    if is_shape_error(exc):
        if field in _ID_FIELDS:
            return InvalidIdError(f"{field} is not a valid Moraine MCP ID", field=field)
        if field == _CURSOR:
            return malformed_cursor(tool)
    return RequestError(_message(schema, field, node, rule), field=field)


def _top_level_error(exc: JsonSchemaValueException, properties: Mapping[str, Schema]) -> RequestError:
    value = exc.value
    if exc.rule == "additionalProperties" and isinstance(value, Mapping):
        unknown = sorted(str(k) for k in value if k not in properties)
        noun = "field" if len(unknown) == 1 else "fields"
        return RequestError(
            f"unknown {noun}: {', '.join(unknown)}; accepted fields: {', '.join(properties)}",
            field=unknown[0] if unknown else "",
            unknown_fields=unknown,
        )
    if exc.rule == "required" and isinstance(value, Mapping):
        required = exc.rule_definition if isinstance(exc.rule_definition, list) else []
        missing = [str(k) for k in required if k not in value]
        field = missing[0] if missing else ""
        return RequestError(f"{field} is required", field=field)
    return RequestError("arguments must be a JSON object")


def _keywords(schema: Schema, node: Schema) -> Schema:
    """Return the node's keywords with those of its ``anyOf`` branches (a nullable field is published as
    ``anyOf`` [the typed branch, null]; its constraints sit in the typed branch)."""
    resolved = _resolve(schema, node)
    merged: dict[str, Any] = {}
    for option in resolved.get("anyOf", []):
        if isinstance(option, Mapping):
            merged.update(_keywords(schema, option))
    return {**merged, **resolved}


def _message(schema: Schema, field: str, node: Schema, rule: str) -> str:
    resolved = _keywords(schema, node)
    if rule == "type":
        words = [_TYPE_WORDS.get(t, t) for t in _types(schema, node)]
        return f"{field} must be {' or '.join(words)}"
    if rule in ("enum", "anyOf") and enum_values(schema, node):
        return f"{field} must be one of: {', '.join(enum_values(schema, node))}"
    if rule == "pattern" and resolved.get("format") == "date-time":
        precision = ", at most millisecond precision" if "{1,3}" in str(resolved.get("pattern", "")) else ""
        return (
            f"{field} must be an RFC 3339 datetime with an explicit timezone offset or Z{precision}, "
            "e.g. 2026-04-30T09:00:00.000-04:00"
        )
    if rule == "pattern" and (resolved.get("pattern") == _BLANK_PATTERN or field in _ID_FIELDS | {_CURSOR}):
        return f"{field} must be a non-empty string"
    if rule == "minLength":
        return f"{field} must be a non-empty string"
    if rule == "maxLength":
        return f"{field} must be at most {resolved.get('maxLength')} characters"
    if rule in ("minimum", "maximum"):
        low, high = resolved.get("minimum"), resolved.get("maximum")
        return (
            f"{field} must be an integer from {low} to {high}"
            if high is not None
            else f"{field} must be at least {low}"
        )
    if rule == "minItems":
        return f"{field} must not be empty"
    return f"{field} is invalid"
