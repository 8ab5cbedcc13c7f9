"""A real MCP client over stdio against ``moraine mcp``: tools, schemas and every validation row of the document."""

from __future__ import annotations

from typing import Any

import pytest
from stdio_session import StdioRun
from contract_rows import EMPTY_STORE_ROWS, VALIDATION_ROWS, Row
from jsonschema import Draft202012Validator

from generated.descriptors import DESCRIPTORS

TOOL_NAMES = {"search_sessions", "open", "list_sessions", "file_attention"}


def _output_errors(run: StdioRun, tool: str, structured: Any) -> list[str]:
    schema = next(t.output_schema for t in run.tools if t.name == tool)
    return [e.message for e in Draft202012Validator(schema).iter_errors(structured)]


def test_stdio_server_lists_exactly_the_four_tools_with_input_and_output_schemas(stdio_run: StdioRun) -> None:
    assert {t.name for t in stdio_run.tools} == TOOL_NAMES
    for tool in stdio_run.tools:
        assert tool.input_schema == DESCRIPTORS[tool.name]["inputSchema"]
        assert tool.output_schema == DESCRIPTORS[tool.name]["outputSchema"]
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.annotations.idempotent_hint is True and tool.annotations.open_world_hint is False
        assert tool.description and tool.title


@pytest.mark.parametrize("row", VALIDATION_ROWS + EMPTY_STORE_ROWS, ids=lambda row: row[0])
def test_invalid_call_returns_error_envelope_with_code_and_field(stdio_run: StdioRun, row: Row) -> None:
    name, tool, _, code, field = row
    result = stdio_run.results[name]
    envelope = result.structured_content
    assert result.is_error is True
    assert envelope is not None
    assert _output_errors(stdio_run, tool, envelope) == []
    assert envelope["schema_version"] == "moraine.mcp.error.v1"
    assert envelope["tool"] == tool
    assert envelope["error"]["code"] == code, envelope["error"]
    if field is not None:
        assert envelope["error"]["details"].get("field") == field, envelope["error"]
    assert result.content and result.content[0].type == "text" and code in result.content[0].text


def test_unsupported_event_type_lists_the_supported_types(stdio_run: StdioRun) -> None:
    envelope = stdio_run.results["search unsupported event type"].structured_content
    assert envelope is not None
    assert envelope["error"]["message"] == "unsupported event type: debug_trace"
    assert envelope["error"]["details"]["supported"] == [
        "user_input",
        "assistant_response",
        "reasoning",
        "tool_call",
        "tool_response",
        "compaction",
        "system",
        "runtime",
    ]


def test_within_event_id_gets_the_documents_message(stdio_run: StdioRun) -> None:
    envelope = stdio_run.results["search within_id is an event ID"].structured_content
    assert envelope is not None
    assert envelope["error"]["message"] == "within_id accepts session and turn IDs, not event IDs"


def test_error_envelope_echoes_the_request_as_received(stdio_run: StdioRun) -> None:
    envelope = stdio_run.results["search blank query"].structured_content
    assert envelope is not None
    assert envelope["request"] == {"query": "   "}
    assert envelope["error"]["message"] == "query must be a non-empty string"


@pytest.mark.parametrize(
    "name",
    [
        "search canonical request",
        "search n_hits 5.0 is the integer 5",
        "list defaults",
        "file_attention defaults",
    ],
)
def test_valid_call_returns_success_envelope_valid_against_output_schema(
    stdio_run: StdioRun, name: str
) -> None:
    result = stdio_run.results[name]
    envelope = result.structured_content
    assert result.is_error is False, envelope
    assert envelope is not None
    tool = envelope["tool"]
    assert envelope["schema_version"] == f"moraine.mcp.{tool}.v1"
    assert _output_errors(stdio_run, tool, envelope) == []
    assert isinstance(envelope["performance"]["elapsed_ms"], int)


def test_search_echoes_the_canonical_request(stdio_run: StdioRun) -> None:
    envelope = stdio_run.results["search canonical request"].structured_content
    assert envelope is not None
    assert envelope["request"] == {
        "query": "spaced query",
        "within_id": None,
        "event_types": ["user_input", "assistant_response"],
        "harness": None,
        "source": None,
        "n_hits": 10,
    }
    assert envelope["data"]["limit"] == 10
    five = stdio_run.results["search n_hits 5.0 is the integer 5"].structured_content
    assert five is not None and five["request"]["n_hits"] == 5 and type(five["request"]["n_hits"]) is int


def test_list_sessions_echoes_every_default(stdio_run: StdioRun) -> None:
    envelope = stdio_run.results["list defaults"].structured_content
    assert envelope is not None
    assert envelope["request"] == {
        "start_datetime": "2026-04-30T09:00:00-04:00",
        "end_datetime": "2026-04-30T13:00:00-04:00",
        "limit": 20,
        "cursor": None,
        "mode": None,
        "harness": None,
        "source": None,
        "sort": "desc",
    }


def test_unknown_tool_is_an_error(stdio_run: StdioRun) -> None:
    unknown = stdio_run.unknown_tool
    assert isinstance(unknown, Exception) or unknown.is_error is True
