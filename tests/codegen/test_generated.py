"""The committed generated code works: descriptors are well formed, models round-trip, validators judge payloads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from generated import models
from generated.descriptors import DESCRIPTORS, SERVER
from generated.tools import TOOLS
from generated.validators import VALIDATORS, JsonSchemaValueException

ROOT = Path(__file__).resolve().parents[2]


def test_descriptors_have_schemas_annotations_and_one_of_success_or_error() -> None:
    assert SERVER["name"] == "moraine"
    assert sorted(DESCRIPTORS) == ["file_attention", "list_sessions", "open", "search_sessions"]
    for name, descriptor in DESCRIPTORS.items():
        assert descriptor["name"] == name and descriptor["title"] and len(descriptor["description"]) > 80
        Draft202012Validator.check_schema(descriptor["inputSchema"])
        Draft202012Validator.check_schema(descriptor["outputSchema"])
        assert descriptor["inputSchema"]["type"] == "object"
        assert descriptor["inputSchema"]["additionalProperties"] is False
        assert descriptor["outputSchema"]["oneOf"] == [
            {"$ref": f"#/$defs/{TOOLS[name].response_model.__name__}"},
            {"$ref": "#/$defs/ErrorEnvelope"},
        ]
        annotations = descriptor["annotations"]
        assert (annotations["readOnlyHint"], annotations["idempotentHint"], annotations["openWorldHint"]) == (
            True,
            True,
            False,
        )


def test_open_data_model_round_trips_the_documents_event_example() -> None:
    example = json.loads(
        (ROOT / "spec/examples/open/response-event-tool-call.json").read_text(encoding="utf-8")
    )
    envelope = example["document"]
    parsed = models.OpenResponse.model_validate(envelope)
    assert isinstance(parsed.data.root, models.OpenEventData)
    assert parsed.data.root.content.model_extra == {}
    dumped = parsed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert dumped == envelope


def test_event_content_keeps_additional_fields() -> None:
    content = models.EventContent.model_validate(
        {"format": "tool_response", "text": "ok", "truncated": False, "stdout_bytes": 12}
    )
    assert content.model_dump(exclude_unset=True)["stdout_bytes"] == 12


def test_typed_ids_are_their_own_types() -> None:
    hit_open = models.SearchHitOpen(event_id="event:e", turn_id="turn:t", session_id="session:s")  # type: ignore[arg-type]  # pydantic validates the plain strings into typed IDs
    assert isinstance(hit_open.event_id, models.EventId) and hit_open.event_id.root == "event:e"
    with pytest.raises(ValueError):
        models.SearchHitOpen(event_id="turn:t", turn_id="turn:t", session_id="session:s")  # type: ignore[arg-type]  # the wrong kind is rejected


def test_output_validator_accepts_both_envelopes_and_rejects_a_mix() -> None:
    error = json.loads((ROOT / "spec/examples/open/error-not-found.json").read_text(encoding="utf-8"))[
        "document"
    ]
    success = json.loads(
        (ROOT / "spec/examples/open/response-turn-complete.json").read_text(encoding="utf-8")
    )["document"]
    validate = VALIDATORS[TOOLS["open"].output_validator]
    validate(error)
    validate(success)
    with pytest.raises(JsonSchemaValueException):
        validate({**success, "error": error["error"]})
