"""Python client bindings generated from ``spec/`` alone (datamodel-code-generator) parse real server responses."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CODEGEN = Path(sys.executable).with_name("datamodel-codegen")
OPTIONS = [
    "--input-file-type", "jsonschema", "--output-model-type", "pydantic_v2.BaseModel",
    "--target-python-version", "3.11", "--use-annotated", "--field-constraints", "--use-double-quotes",
    "--disable-timestamp", "--use-standard-collections", "--use-union-operator", "--extra-fields", "forbid",
    "--output-datetime-class", "AwareDatetime", "--use-title-as-name", "--strict-nullable", "--formatters", "builtin",
]  # fmt: skip
MODELS = {
    "search_sessions": ("search_sessions.response_schema", "SearchSessionsResponse"),
    "list_sessions": ("list_sessions.response_schema", "ListSessionsResponse"),
    "file_attention sessions": ("file_attention.response_schema", "FileAttentionResponse"),
    "file_attention events": ("file_attention.response_schema", "FileAttentionResponse"),
    "open session": ("open.response_schema", "OpenResponse"),
    "open turn": ("open.response_schema", "OpenResponse"),
    "open event": ("open.response_schema", "OpenResponse"),
    "error open": ("error_schema", "ErrorEnvelope"),
    "error search_sessions": ("error_schema", "ErrorEnvelope"),
}
OPEN_DATA = {"open session": "OpenSessionData", "open turn": "OpenTurnData", "open event": "OpenEventData"}


@pytest.mark.slow
def test_models_generated_from_spec_alone_parse_every_kind_of_response(
    spec_schemas: Path, tmp_path: Path, responses: dict[str, dict[str, Any]]
) -> None:
    package = tmp_path / "out" / "moraine_client"
    done = subprocess.run(
        [str(CODEGEN), "--input", str(spec_schemas), "--output", str(package), *OPTIONS],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    sys.path.insert(0, str(package.parent))
    try:
        for kind, (module, name) in MODELS.items():
            model = getattr(importlib.import_module(f"moraine_client.{module}"), name)
            envelope = responses[kind]
            parsed = model.model_validate(envelope)
            assert parsed.tool == envelope["tool"], kind
            if kind in OPEN_DATA:
                data = getattr(parsed.data, "root", parsed.data)  # the oneOf of kinds is a RootModel union
                assert type(data).__name__ == OPEN_DATA[kind], (kind, type(data))
            if kind.startswith("error"):
                assert parsed.error.code.value in {"invalid_request", "invalid_id"}, parsed.error
            else:
                assert parsed.data.model_dump(mode="json", by_alias=True, exclude_unset=True)
    finally:
        sys.path.remove(str(package.parent))
        for loaded in [m for m in sys.modules if m == "moraine_client" or m.startswith("moraine_client.")]:
            del sys.modules[loaded]


def test_the_responses_cover_every_kind_with_data(responses: dict[str, dict[str, Any]]) -> None:
    assert responses["search_sessions"]["data"]["results"] and responses["list_sessions"]["data"]["sessions"]
    assert [responses[k]["data"]["kind"] for k in OPEN_DATA] == ["session", "turn", "event"]
    assert all("error" in responses[k] for k in MODELS if k.startswith("error"))
