"""Portable tool schemas: the published MCP ``inputSchema``/``outputSchema`` in the spelling every client accepts.

Clients that map tool schemas onto a single-``type`` dialect (Gemini's function declarations, for one) reject or
degrade two spellings that ``spec/`` uses because they read well: a ``type`` array (``["string", "null"]``) and a
schema with no assertion at all (``{"description": ...}``, any JSON value). The MCP Inspector's ``--strict`` check
flags both. This module rewrites them into exact equivalents, so the same instances validate before and after:

- ``{"type": [A, B], K...}`` becomes ``{"anyOf": [{"type": A, K...}, {"type": B, K...}]}``, where each branch keeps
  the keywords that can constrain its type (a ``pattern`` never constrains ``null``, so the null branch drops it);
  annotations (title, description, default, examples) stay on the outer schema. (type A or B) and K is
  (A and K) or (B and K), and a keyword of another type is a no-op for A.
- A schema without any assertion becomes ``anyOf`` one branch per JSON type: it still accepts every value.

The validators keep ``spec/``'s own spelling (one ``type`` check is cheaper than an ``anyOf``); tests prove that
both spellings accept the same instances.
"""

from __future__ import annotations

from typing import Any

__all__ = ["portable"]

_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "deprecated"})
_ALL_TYPES = ("object", "array", "string", "number", "boolean", "null")
_NUMERIC = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
# Keywords that constrain only instances of one type (JSON Schema 2020-12 validation and applicator vocabularies).
_TYPE_ONLY: dict[str, frozenset[str]] = {
    "string": frozenset(
        {"minLength", "maxLength", "pattern", "format", "contentMediaType", "contentEncoding"}
    ),
    "number": _NUMERIC,
    "integer": _NUMERIC,
    "array": frozenset(
        {
            "items",
            "prefixItems",
            "contains",
            "minContains",
            "maxContains",
            "minItems",
            "maxItems",
            "uniqueItems",
        }
    ),
    "object": frozenset(
        {
            "properties",
            "patternProperties",
            "additionalProperties",
            "propertyNames",
            "required",
            "dependentRequired",
            "dependentSchemas",
            "minProperties",
            "maxProperties",
        }
    ),
}
_CONSTRAINING = frozenset().union(*_TYPE_ONLY.values()) | {
    "type",
    "enum",
    "const",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "$ref",
}
# Where subschemas sit: maps of schemas, lists of schemas, single schemas.
_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_SINGLES = ("items", "contains", "not", "propertyNames", "if", "then", "else", "additionalProperties")


def portable(schema: Any, *, under_not: bool = False) -> Any:
    """Return ``schema`` with every type array split into ``anyOf`` branches and every assertion-free schema typed.

    Raises:
        ValueError: a type array beside an ``anyOf`` of its own (no exact rewrite without nesting; none in spec/).
    """
    if not isinstance(schema, dict):
        return schema  # a boolean schema (e.g. additionalProperties: true) is left as written
    node = _children(schema)
    kinds = node.get("type")
    if isinstance(kinds, list):
        return _split(node, kinds)
    if not under_not and not any(key in _CONSTRAINING for key in node):
        return {**node, "anyOf": [{"type": kind} for kind in _ALL_TYPES]}
    return node


def _children(schema: dict[str, Any]) -> dict[str, Any]:
    out = dict(schema)
    for key in _SCHEMA_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {name: portable(sub) for name, sub in out[key].items()}
    for key in _SCHEMA_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [portable(sub) for sub in out[key]]
    for key in _SCHEMA_SINGLES:
        if key in out:
            out[key] = portable(out[key], under_not=key == "not")
    return out


def _split(node: dict[str, Any], kinds: list[str]) -> dict[str, Any]:
    if "anyOf" in node:
        raise ValueError(f"cannot split type {kinds} beside an existing anyOf")
    outer = {key: value for key, value in node.items() if key in _ANNOTATIONS}
    rest = {key: value for key, value in node.items() if key not in _ANNOTATIONS and key != "type"}
    others = {keyword for kind, keywords in _TYPE_ONLY.items() for keyword in keywords}
    branches = []
    for kind in kinds:
        foreign = others - _TYPE_ONLY.get(kind, frozenset())
        branches.append({"type": kind, **{key: value for key, value in rest.items() if key not in foreign}})
    return {**outer, "anyOf": branches}
