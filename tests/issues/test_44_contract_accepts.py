"""Issue 44, item 6: the HTTP facade's OpenAPI document says exactly what the server accepts.

Each test here stands for one failure schemathesis (``--checks all``) found against a live daemon: a null the
server took although the document said string, and well-formed values the document allowed but the server refused.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

from generated.descriptors import DESCRIPTORS
from moraine.server.requests import arguments_conform

OPENAPI: dict[str, Any] = json.loads((resources.files("generated") / "openapi.json").read_text("utf-8"))
# The least each tool needs: the required arguments, with values the server takes.
MINIMAL: dict[str, dict[str, Any]] = {
    "search_sessions": {"query": "retry loop"},
    "open": {"id": "session:ses_0123456789ABC"},
    "list_sessions": {"start_datetime": "2026-04-30T00:00:00Z", "end_datetime": "2026-05-01T00:00:00Z"},
    "file_attention": {"path": "src/app.py"},
}


def _document_accepts(tool: str, arguments: dict[str, Any]) -> bool:
    """Tell whether the facade's OpenAPI document accepts ``arguments`` as ``tool``'s request body."""
    body = OPENAPI["paths"][f"/v1/tools/{tool}"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    schema = {**body, "components": OPENAPI["components"]}
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    return validator.is_valid(arguments)


def _properties(tool: str) -> list[tuple[str, bool]]:
    schema = DESCRIPTORS[tool]["inputSchema"]
    required = set(schema.get("required", ()))
    return [(name, name in required) for name in schema["properties"]]


@pytest.mark.parametrize("tool", sorted(MINIMAL))
def test_the_document_accepts_the_minimal_arguments_the_server_accepts(tool: str) -> None:
    assert _document_accepts(tool, MINIMAL[tool]) and arguments_conform(tool, MINIMAL[tool])


@pytest.mark.parametrize(
    ("tool", "field", "required"),
    [(tool, field, required) for tool in sorted(MINIMAL) for field, required in _properties(tool)],
)
def test_a_null_argument_is_in_the_document_exactly_when_the_server_takes_it(
    tool: str, field: str, required: bool
) -> None:
    """schemathesis: ``within_id: null`` and ``end_datetime: null`` were answered 200 while the document said
    string. An optional argument sent as null means left out (the server drops it); a required one is refused."""
    arguments = {**MINIMAL[tool], field: None}
    assert arguments_conform(tool, arguments) is not required
    assert _document_accepts(tool, arguments) is not required
