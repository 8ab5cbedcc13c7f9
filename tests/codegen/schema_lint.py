"""The MCP Inspector's tool-schema portability rules (``--cli --strict``, ``core/json/schemaLint.ts`` of
@modelcontextprotocol/inspector 2.12.0), restated in Python so CI runs them without Node.

Rules: ``type-union`` (a ``type`` array), ``remote-ref`` (a ``$ref`` outside the document when it declares no
``$id``), ``untyped-schema`` (a schema object without any validation keyword, except directly under ``not``) and
``boolean-schema`` (a bare ``true``/``false`` where a schema object is expected; the four ``additional*`` and
``unevaluated*`` keywords may be booleans).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Finding", "lint_schema", "lint_tool"]

_BOOLEAN_VALUED = {"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"}
_SINGLES = (
    "items",
    "contains",
    "not",
    "propertyNames",
    "if",
    "then",
    "else",
    "additionalProperties",
    "unevaluatedProperties",
    "additionalItems",
    "unevaluatedItems",
    "contentSchema",
)
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAPS = ("properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions")
_CONSTRAINING = {
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "format", "contentMediaType", "contentEncoding", "contentSchema",
    "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties",
    "required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items", "prefixItems", "contains",
    "additionalItems", "unevaluatedItems", "properties", "patternProperties", "additionalProperties",
    "unevaluatedProperties", "propertyNames", "dependentSchemas", "dependencies", "$ref", "$dynamicRef",
    "$recursiveRef",
}  # fmt: skip
_TYPES = {"null", "boolean", "object", "array", "number", "string", "integer"}


@dataclass(frozen=True)
class Finding:
    rule: str
    path: str


def _subschemas(node: dict[str, Any], path: str) -> Iterator[tuple[Any, str, str]]:
    for key in _MAPS:
        if isinstance(node.get(key), dict):
            for name, sub in node[key].items():
                yield sub, f"{path}.{key}.{name}", key
    for key in _LISTS:
        if isinstance(node.get(key), list):
            for index, sub in enumerate(node[key]):
                yield sub, f"{path}.{key}[{index}]", key
    for key in _SINGLES:
        if key in node:
            value = node[key]
            if key == "items" and isinstance(value, list):
                for index, sub in enumerate(value):
                    yield sub, f"{path}.items[{index}]", key
            else:
                yield value, f"{path}.{key}", key


def _has_id(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    if isinstance(node.get("$id"), str) and node["$id"]:
        return True
    return any(_has_id(sub) for sub, _, _ in _subschemas(node, ""))


def _walk(node: Any, path: str, keyword: str | None, embedded_ids: bool, out: list[Finding]) -> None:
    if isinstance(node, bool):
        if keyword not in _BOOLEAN_VALUED:
            out.append(Finding("boolean-schema", path))
        return
    if not isinstance(node, dict):
        return
    kinds = node.get("type")
    if (
        isinstance(kinds, list)
        and kinds
        and all(k in _TYPES for k in kinds)
        and len(set(kinds)) == len(kinds)
    ):
        out.append(Finding("type-union", path))
    ref = node.get("$ref")
    if isinstance(ref, str) and ref and not ref.startswith("#") and not embedded_ids:
        out.append(Finding("remote-ref", path))
    constrains = any(key in _CONSTRAINING for key in node) or (
        "if" in node and ("then" in node or "else" in node)
    )
    if not constrains and keyword != "not":
        out.append(Finding("untyped-schema", path))
    for sub, sub_path, sub_keyword in _subschemas(node, path):
        _walk(sub, sub_path, sub_keyword, embedded_ids, out)


def lint_schema(schema: Any, name: str) -> list[Finding]:
    """Return every portability finding in ``schema`` (paths start with ``name``)."""
    out: list[Finding] = []
    _walk(schema, name, None, _has_id(schema), out)
    return out


def lint_tool(tool: dict[str, Any]) -> list[Finding]:
    """Return the findings of a tool descriptor's input and output schemas."""
    return lint_schema(tool["inputSchema"], "inputSchema") + lint_schema(
        tool.get("outputSchema"), "outputSchema"
    )
