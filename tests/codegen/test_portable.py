"""The published tool schemas pass the Inspector's portability rules and accept exactly what spec/'s spelling does."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
from schema_lint import Finding, lint_schema, lint_tool

from codegen.portable import portable
from generated.descriptors import DESCRIPTORS
from generated.tools import TOOLS
from generated.validators import VALIDATORS, JsonSchemaValueException
from moraine.server.requests import drop_null_options

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [
    json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "spec/examples").rglob("*.json"))
]
PROBES: list[Any] = [
    None, "", " ", "x", "session:ses_00000000000000", "2026-04-29T18:42:31.125Z", "2026-04-29", 0, 1, -1, 51, 1.5,
    True, False, [], ["user_input"], ["nope"], {}, {"a": 1},
]  # fmt: skip
Validate = Callable[[Any], Any]


def _accepts(validate: Validate, instance: Any) -> bool:
    try:
        validate(instance)
    except JsonSchemaValueException:
        return False
    return True


def _mutations(instance: Any, extra_keys: tuple[str, ...] = ()) -> Iterator[Any]:
    """Yield ``instance``, then (in place, restored afterwards) each version with one value replaced by a probe."""
    yield instance
    if isinstance(instance, dict):
        for key in sorted({*instance, *extra_keys}):
            present, old = key in instance, instance.get(key)
            for probe in PROBES:
                instance[key] = probe
                yield instance
            if present:
                instance[key] = old
                yield from _mutations(old)
            else:
                del instance[key]
    elif (
        isinstance(instance, list) and instance
    ):  # its items share one schema, so the first stands for the rest
        old = instance[0]
        for probe in PROBES:
            instance[0] = probe
            yield instance
        instance[0] = old
        yield from _mutations(old)


def _instances(titles: set[str]) -> list[Any]:
    return [example["document"] for example in EXAMPLES if example["schema"] in titles]


@pytest.mark.parametrize("tool", sorted(DESCRIPTORS))
def test_published_tool_schemas_have_no_portability_findings(tool: str) -> None:
    assert lint_tool(DESCRIPTORS[tool]) == []


def test_the_lint_finds_each_rule_it_restates() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"$ref": "other.schema.json"},
            "c": {"description": "anything"},
            "d": {"type": "array", "items": True},
            "e": {"not": {}},
            "f": {"type": "object", "additionalProperties": True},
        },
    }
    assert lint_schema(schema, "s") == [
        Finding("type-union", "s.properties.a"),
        Finding("remote-ref", "s.properties.b"),
        Finding("untyped-schema", "s.properties.c"),
        Finding("boolean-schema", "s.properties.d.items"),
    ]


def test_spec_spelling_is_what_the_lint_flags_and_portable_clears() -> None:
    spec_spelling = {
        "type": "object",
        "properties": {"n": {"type": ["integer", "null"], "minimum": 1}, "any": {}},
    }
    assert {f.rule for f in lint_schema(spec_spelling, "s")} == {"type-union", "untyped-schema"}
    assert lint_schema(portable(spec_spelling), "s") == []
    assert portable(spec_spelling)["properties"]["n"] == {
        "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]
    }


@pytest.mark.parametrize("tool", sorted(DESCRIPTORS))
def test_published_schemas_accept_exactly_what_the_spec_spelling_accepts(tool: str) -> None:
    contract, descriptor = TOOLS[tool], DESCRIPTORS[tool]
    title = contract.response_model.__name__.removesuffix("Response")
    pairs = [
        (VALIDATORS[contract.arguments_validator], descriptor["inputSchema"], {f"{title}Arguments"}),
        (
            VALIDATORS[contract.output_validator],
            descriptor["outputSchema"],
            {f"{title}Response", "ErrorEnvelope"},
        ),
    ]
    for spec_validate, published, titles in pairs:
        published_validate = fastjsonschema.compile(published, use_default=False, use_formats=False)
        arguments = published is descriptor["inputSchema"]
        # Arguments also start from {} with every accepted key added in turn (open has no arguments example).
        # Optional arguments given as null mean left out: the server drops them before validating (requests.py).
        examples = (
            [{}, *(drop_null_options(e, published) for e in _instances(titles))]
            if arguments
            else _instances(titles)
        )
        keys = tuple(published["properties"]) if arguments else ()
        checked = accepted = 0
        for example in examples:
            for instance in _mutations(example, keys):
                verdict = _accepts(spec_validate, instance)
                assert _accepts(published_validate, instance) == verdict, json.dumps(instance)[:2000]
                checked, accepted = checked + 1, accepted + verdict
        assert 0 < accepted < checked  # both verdicts occur, so agreement is not vacuous
