"""Hypothesis strategies from the tools' argument schemas (the inputSchema each tool publishes).

Written here because hypothesis-jsonschema needs an older hypothesis than the one installed. It covers what the
argument schemas use: ``$ref`` into ``$defs``, type lists, ``enum``, ``anyOf``, strings (``\\S`` patterns,
``maxLength``, RFC 3339 ``date-time``), integers with bounds, booleans, arrays of enums and closed objects.
``valid_arguments`` draws schema-valid objects; ``near_valid_arguments`` breaks exactly one field and says which.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import strategies as st

__all__ = ["Breakage", "near_valid_arguments", "valid_arguments"]

Schema = dict[str, Any]
_NON_BLANK = st.text(min_size=1, max_size=40).filter(lambda s: s.strip() != "")


def _resolve(node: Schema, root: Schema) -> Schema:
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/$defs/"), f"unsupported reference {ref}"
        node = root["$defs"][ref.removeprefix("#/$defs/")]
    return node


def _datetimes() -> st.SearchStrategy[str]:
    instants = st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2027, 12, 31))
    offsets = st.sampled_from([0, 60, -240, 330])

    def render(moment: datetime, minutes: int, millis: bool) -> str:
        zone = UTC if minutes == 0 else __import__("datetime").timezone(timedelta(minutes=minutes))
        value = moment.replace(tzinfo=zone)
        text = value.strftime("%Y-%m-%dT%H:%M:%S")
        if millis:
            text += f".{value.microsecond // 1000:03d}"
        if minutes == 0:
            return text + "Z"
        sign = "+" if minutes > 0 else "-"
        return text + f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"

    return st.builds(render, instants, offsets, st.booleans())


def value_of(node: Schema, root: Schema, samples: dict[str, list[Any]], name: str) -> st.SearchStrategy[Any]:
    """Return a strategy of values valid under ``node`` (``samples[name]`` adds realistic values, e.g. real IDs)."""
    node = _resolve(node, root)
    if "anyOf" in node:
        return st.one_of([value_of(option, root, samples, name) for option in node["anyOf"]])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    types = node.get("type", "string")
    options = [
        _typed(kind, node, root, samples, name) for kind in ([types] if isinstance(types, str) else types)
    ]
    return st.one_of(options)


def _typed(
    kind: str, node: Schema, root: Schema, samples: dict[str, list[Any]], name: str
) -> st.SearchStrategy[Any]:
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        low, high = node.get("minimum", -(2**31)), node.get("maximum", 2**31)
        return st.integers(min_value=low, max_value=min(high, low + 200))
    if kind == "array":
        items = value_of(node.get("items", {}), root, samples, name)
        return st.lists(items, min_size=node.get("minItems", 0), max_size=4)
    if kind == "string":
        if node.get("format") == "date-time":
            return _datetimes()
        low, high = node.get("minLength", 0), min(node.get("maxLength", 40), 40)
        text = _NON_BLANK if node.get("pattern") == "\\S" else st.text(min_size=low, max_size=high)
        padded = st.builds(lambda s: f"  {s} ", _NON_BLANK) if node.get("pattern") == "\\S" else text
        realistic = st.sampled_from(samples[name]) if samples.get(name) else text
        return st.one_of(text, padded, realistic, realistic)
    raise AssertionError(f"unsupported type {kind} in {name}")


def valid_arguments(schema: Schema, samples: dict[str, list[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Return schema-valid argument objects: the required fields plus any subset of the optional ones."""
    properties = schema["properties"]
    required = set(schema.get("required", []))
    fields = {name: value_of(node, schema, samples, name) for name, node in properties.items()}
    optional = sorted(set(properties) - required)
    return st.builds(
        lambda base, extra: {**base, **extra},
        st.fixed_dictionaries({name: fields[name] for name in sorted(required)}),
        st.fixed_dictionaries({}, optional={name: fields[name] for name in optional}),
    )


class Breakage:
    """How a near-valid argument object differs from a valid one: the field at fault and what was done to it."""

    def __init__(self, field: str, how: str) -> None:
        self.field, self.how = field, how

    def __repr__(self) -> str:
        return f"Breakage({self.field!r}, {self.how!r})"


def _wrong_values(node: Schema, root: Schema) -> list[tuple[str, Any]]:
    node = _resolve(node, root)
    branches = [
        _resolve(o, root) for o in node.get("anyOf", [])
    ]  # a nullable field is anyOf [its type, null]
    keywords = {key: value for b in branches for key, value in b.items() if key != "type"} | node
    types = node.get("type") or [b.get("type", "string") for b in branches]
    types = [types] if isinstance(types, str) else list(types)
    wrong: list[tuple[str, Any]] = [("an object", {"nested": 1})]
    if "string" not in types and "enum" not in keywords:
        wrong.append(("a string", "seven"))
    if "integer" in types:
        if "minimum" in keywords:
            wrong.append(("below the minimum", keywords["minimum"] - 1))
        if "maximum" in keywords:
            wrong.append(("above the maximum", keywords["maximum"] + 1))
        wrong.append(("a fraction", 2.5))
    if "string" in types and keywords.get("pattern") == "\\S":
        wrong.append(("blank", "   "))
    if "string" in types and keywords.get("minLength"):
        wrong.append(("empty", ""))
    if "array" in types:
        wrong.append(("a bare string", "user_input"))
    if "enum" in keywords:
        wrong.append(("not in the enum", "no-such-value"))
    if "boolean" in types:
        wrong.append(("a string", "yes"))
    return wrong


@st.composite
def near_valid_arguments(
    draw: st.DrawFn,
    schema: Schema,
    samples: dict[str, list[Any]],
    base: st.SearchStrategy[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], dict[str, Any], Breakage]:
    """Draw (valid, broken, breakage): a valid object and a copy with exactly one field broken, added or removed."""
    properties = schema["properties"]
    arguments = draw(base if base is not None else valid_arguments(schema, samples))
    kinds = ["unknown field", "wrong value"] + (["missing required"] if schema.get("required") else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "unknown field":
        name = draw(
            st.sampled_from([n for n in ("depth", "query_text", "ids", "verbose") if n not in properties])
        )
        return arguments, {**arguments, name: 1}, Breakage(name, kind)
    if kind == "missing required":
        name = draw(st.sampled_from(sorted(schema["required"])))
        return arguments, {k: v for k, v in arguments.items() if k != name}, Breakage(name, kind)
    name = draw(st.sampled_from(sorted(properties)))
    how, value = draw(st.sampled_from(_wrong_values(properties[name], schema)))
    return arguments, {**arguments, name: value}, Breakage(name, how)
