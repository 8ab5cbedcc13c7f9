"""Load stage: refs resolve to one flat table, bundles are self-contained, forbidden keywords are found by position."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from codegen import SpecError, load

CASE = Path(__file__).resolve().parent / "cases" / "minimal" / "spec"


def _copy(tmp_path: Path) -> Path:
    spec = tmp_path / "spec"
    shutil.copytree(CASE, spec)
    return spec


def _edit_arguments(spec: Path, name: str, schema: object) -> None:
    path = spec / "echo_text" / "arguments.schema.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["properties"][name] = schema
    path.write_text(json.dumps(document), encoding="utf-8")


def test_refs_across_files_become_local_defs_and_bundles_are_self_contained() -> None:
    spec = load(CASE)
    assert spec.definitions["EchoTextResponse"]["properties"]["request"] == {
        "$ref": "#/$defs/EchoTextRequest"
    }
    bundle = spec.bundle("EchoTextResponse")
    assert sorted(bundle["$defs"]) == ["Color", "Count", "EchoLong", "EchoShort", "EchoTextData", "EchoTextRequest",
                                       "ThingId", "Warnings"]  # fmt: skip
    validator = Draft202012Validator(bundle)
    document = {
        "schema_version": "moraine.mcp.echo_text.v1",
        "tool": "echo_text",
        "request": {"text": "hi", "color": "red", "at": None},
        "data": {"kind": "long", "id": None, "chunks": ["a", "b"]},
        "warnings": [],
    }
    assert list(validator.iter_errors(document)) == []
    assert list(
        validator.iter_errors({**document, "data": {"kind": "long", "id": None, "chunks": ["a", "a"]}})
    )


def test_a_property_may_be_named_like_a_forbidden_keyword(tmp_path: Path) -> None:
    spec = _copy(tmp_path)
    _edit_arguments(spec, "prefixItems", {"type": "string"})
    assert "prefixItems" in load(spec).definitions["EchoTextArguments"]["properties"]


def test_forbidden_keyword_inside_a_property_schema_is_reported_with_its_pointer(tmp_path: Path) -> None:
    spec = _copy(tmp_path)
    _edit_arguments(spec, "pair", {"type": "array", "prefixItems": [{"type": "string"}]})
    with pytest.raises(SpecError) as caught:
        load(spec)
    assert [str(d) for d in caught.value.diagnostics] == [
        "error: echo_text/arguments.schema.json#/properties/pair/prefixItems: keyword prefixItems is not allowed "
        "(draft-07-compatible keywords only)"
    ]


def test_digest_changes_with_any_schema_byte(tmp_path: Path) -> None:
    spec = _copy(tmp_path)
    before = load(spec).digest
    _edit_arguments(spec, "note", {"type": "string"})
    assert load(spec).digest != before
