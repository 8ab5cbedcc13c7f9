"""Issue 44, item 6: the HTTP facade's OpenAPI document says exactly what the server accepts.

Each test here stands for one failure schemathesis (``--checks all``) found against a live daemon: a null the
server took although the document said string, and well-formed values the document allowed but the server refused.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import anyio
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generated.descriptors import DESCRIPTORS
from handlers import Deps, load_handlers
from handlers.requests import file_attention, list_sessions, search_sessions
from handlers.requests import open as open_tool
from moraine import ids
from moraine.errors import MoraineError, NotFoundError, RequestError
from moraine.handler_api import Parse, Settings
from moraine.harnesses.registry import harnesses
from moraine.server.requests import arguments_conform, check_request
from moraine.server.service import ToolReply, ToolService
from moraine.store.client import Store
from moraine.store.reads.cursors import (
    CURSOR_PATTERN,
    ListCursor,
    OpenCursor,
    encode_list_cursor,
    encode_open_cursor,
)

OPENAPI: dict[str, Any] = json.loads((resources.files("generated") / "openapi.json").read_text("utf-8"))
SECRET = b"k" * 32
SETTINGS = Settings(max_results=50, cursor_secret=SECRET)
PARSES: dict[str, Parse] = {
    "file_attention": file_attention.parse,
    "list_sessions": list_sessions.parse,
    "open": open_tool.parse,
    "search_sessions": search_sessions.parse,
}
# The least each tool needs: the required arguments, with values the server takes.
MINIMAL: dict[str, dict[str, Any]] = {
    "search_sessions": {"query": "retry loop"},
    "open": {"id": "session:ses_0123456789ABC"},
    "list_sessions": {"start_datetime": "2026-04-30T00:00:00Z", "end_datetime": "2026-05-01T00:00:00Z"},
    "file_attention": {"path": "src/app.py"},
}


def _document_accepts(tool: str, arguments: dict[str, Any]) -> bool:
    """Tell whether the facade's OpenAPI document accepts ``arguments`` as ``tool``'s request body."""
    body = OPENAPI["paths"][f"/v1/tools/{tool}"]["post"]["requestBody"]["content"]["application/json"][
        "schema"
    ]
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


def _pattern(tool: str, field: str) -> str:
    pattern: str = DESCRIPTORS[tool]["inputSchema"]["properties"][field]["pattern"]
    return pattern


def _refusal(tool: str, arguments: dict[str, Any]) -> MoraineError | None:
    """Return the error the server answers ``arguments`` with before any store is read (None: accepted)."""
    try:
        check_request(tool, arguments, PARSES[tool], SETTINGS)
    except MoraineError as exc:
        return exc
    return None


def test_the_published_id_and_cursor_patterns_are_the_ones_the_server_checks() -> None:
    assert _pattern("search_sessions", "within_id") == f"^{ids.MORAINE_ID_PATTERN}$"
    assert _pattern("open", "id") == f"^(?:{ids.MORAINE_ID_PATTERN}|{ids.NATIVE_ID_PATTERN})$"
    assert _pattern("open", "cursor") == _pattern("list_sessions", "cursor") == CURSOR_PATTERN
    assert DESCRIPTORS["open"]["inputSchema"]["properties"]["id"]["maxLength"] == ids.MAX_NATIVE_ID_CHARS


@pytest.mark.parametrize("key", [1, 2, 2**32 - 1, 2**63, 2**64 - 1])
@pytest.mark.parametrize("seq", [1, 2**31, 2**32 - 1])
def test_every_id_the_server_issues_matches_the_published_patterns(key: int, seq: int) -> None:
    issued = [ids.session_id(key), ids.turn_id(key, seq), ids.event_id(key, seq)]
    for text in issued:
        assert re.fullmatch(_pattern("open", "id"), text) and re.fullmatch(
            _pattern("search_sessions", "within_id"), text
        )
        assert str(ids.parse_id(text)) == text and _document_accepts("open", {"id": text})
    assert _refusal("search_sessions", {"query": "q", "within_id": issued[0]}) is None
    assert _refusal("open", {"id": issued[2]}) is None


def test_every_cursor_the_server_issues_matches_the_published_pattern() -> None:
    tokens = [
        encode_open_cursor(SECRET, OpenCursor("turn", 2**64 - 1, 2**32 - 1, 50, 2**32 - 1, 2**32 - 1, 9)),
        encode_list_cursor(SECRET, ListCursor('[1,2,null,"codex","src","desc"]', 1_777_000_000_000, 1)),
    ]
    for token in tokens:
        assert re.fullmatch(CURSOR_PATTERN, token) and len(token) <= 4096
    assert _refusal("open", {"cursor": tokens[0]}) is None


@pytest.mark.parametrize(
    ("tool", "arguments", "field", "code"),
    [
        ("search_sessions", {"query": "0", "within_id": ""}, "within_id", "invalid_request"),
        ("search_sessions", {"query": "0", "within_id": "session:0"}, "within_id", "invalid_id"),
        ("open", {"cursor": "0"}, "cursor", "invalid_request"),
        ("open", {"id": "session:ses_NOTBASE32!!"}, "id", "invalid_id"),
        ("open", {"id": "two words"}, "id", "invalid_id"),
        ("list_sessions", {**MINIMAL["list_sessions"], "cursor": "0"}, "cursor", "invalid_request"),
    ],
)
def test_an_id_or_cursor_the_server_refuses_is_outside_the_document(
    tool: str, arguments: dict[str, Any], field: str, code: str
) -> None:
    """schemathesis: ``within_id: ""`` and ``cursor: "0"`` were in the document (any string) and refused as
    malformed (422). Now their shape is published: the document refuses them too, and the server says so with
    the same code as before (400, as for every body outside the document)."""
    assert not _document_accepts(tool, arguments) and not arguments_conform(tool, arguments)
    error = _refusal(tool, arguments)
    assert error is not None and error.code == code and error.details["field"] == field


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        (
            "open",
            {"id": "event:evt_01J9DOESNOTEXIST000000000000"},
        ),  # the interface document's not_found example
        ("open", {"id": "session:ses_0"}),
        ("search_sessions", {"query": "q", "within_id": "turn:turn_01J9Q3P4V8BN7XM9G2K6Q1W3E4"}),
    ],
)
def test_a_well_formed_id_moraine_never_issued_is_not_found_rather_than_malformed(
    tool: str, arguments: dict[str, Any]
) -> None:
    assert _document_accepts(tool, arguments) and arguments_conform(tool, arguments)
    error = _refusal(tool, arguments)
    assert isinstance(error, NotFoundError), error


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=30), st.from_regex(ids.MORAINE_ID_PATTERN, fullmatch=True)))
def test_within_id_is_refused_as_malformed_exactly_when_the_document_refuses_it(text: str) -> None:
    arguments = {"query": "q", "within_id": text}
    error = _refusal("search_sessions", arguments)
    malformed = (
        error is not None
        and error.code in ("invalid_id", "invalid_request")
        and not (
            isinstance(error, RequestError) and error.message.startswith("within_id accepts session and turn")
        )
    )
    assert malformed is not _document_accepts("search_sessions", arguments), (text, error)


def _service_call(store: Store, tool: str, arguments: dict[str, Any]) -> ToolReply:
    service = ToolService(Deps(store=store, settings=SETTINGS), load_handlers())

    async def run() -> ToolReply:
        return await service.call(tool, arguments)

    return anyio.run(run)


@pytest.mark.parametrize("tool", ["search_sessions", "list_sessions", "file_attention"])
def test_a_harness_filter_naming_no_installed_harness_answers_no_hits_with_a_warning(
    store: Store, tool: str
) -> None:
    """schemathesis: a well-formed harness name the server has no harness for is a filter that matches nothing, not
    a bad request: the call succeeds with no hits and a warning naming the installed harnesses."""
    installed = set(harnesses())
    assert "codex" in installed and "Codex" not in installed
    unknown = _service_call(store, tool, {**MINIMAL[tool], "harness": "Codex"})
    assert not unknown.is_error, unknown.envelope
    data = unknown.envelope["data"]
    assert data["result_count"] == 0
    notes = [w for w in unknown.envelope["warnings"] if "'Codex' names no installed harness" in w]
    assert len(notes) == 1 and "did you mean 'codex'?" in notes[0] and "claude-code" in notes[0], notes
    known = _service_call(store, tool, {**MINIMAL[tool], "harness": "codex"})
    assert not known.is_error and not any("installed harness" in w for w in known.envelope["warnings"])


def test_non_space_is_exactly_what_the_servers_trimming_keeps() -> None:
    compiled = re.compile(ids.NON_SPACE)
    assert all((compiled.fullmatch(chr(code)) is None) is chr(code).isspace() for code in range(0x110000))


def test_argument_patterns_use_no_class_whose_meaning_differs_between_ecma_262_and_python() -> None:
    """schemathesis (reading the document as ECMA-262) sent an id holding U+001F, which ``\\S`` allows there and
    Python's ``\\S`` does not: the patterns spell their classes out (``\\d`` differs too, Unicode digits in
    Python)."""
    patterns = [
        (tool, name, prop["pattern"])
        for tool, descriptor in DESCRIPTORS.items()
        for name, prop in descriptor["inputSchema"]["properties"].items()
        if "pattern" in prop
    ]
    assert len(patterns) >= 12
    for tool, name, pattern in patterns:
        assert not re.search(r"\\[sSdDwWb]", pattern), (tool, name, pattern)


@pytest.mark.parametrize(
    ("text", "allowed"), [("abc\x1f", False), ("\x1fabc", False), ("ses\x0e-1", True), ("\ufeff7c1d", True)]
)
def test_an_id_with_a_character_the_dialects_disagree_on_is_judged_alike_by_document_and_server(
    text: str, allowed: bool
) -> None:
    """U+001F is space to Python's ``\\S`` and not to ECMA-262's (U+FEFF the reverse): the document now says what
    the server's trimming keeps, so both refuse the first and both take the second."""
    arguments = {"id": text}
    assert _document_accepts("open", arguments) is allowed and arguments_conform("open", arguments) is allowed
    error = _refusal("open", arguments)
    assert (error is None) is allowed and (allowed or error is not None and error.code == "invalid_id")


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"id": "session:abc", "cursor": "abc"}, "cursor"),  # pass either id or cursor
        ({"id": "session:abc", "bogus": 1}, "bogus"),  # unknown field
        ({"cursor": "abc", "limit": 3}, "limit"),  # the cursor carries its page size
    ],
)
def test_a_request_broken_in_structure_is_invalid_request_even_with_a_malformed_id_or_cursor(
    arguments: dict[str, Any], field: str
) -> None:
    """mcpprobe's contract rows: the request's structure is judged before one value's published shape."""
    error = _refusal("open", arguments)
    assert error is not None and error.code == "invalid_request" and error.details["field"] == field, error


@pytest.mark.parametrize("tool", sorted(MINIMAL))
def test_an_unknown_field_sent_as_null_is_still_an_unknown_field(tool: str) -> None:
    """schemathesis (seed 1, open): ``{"id": ..., "limit": 1, "u½$": null}`` was answered as if the unknown field were
    an optional argument left out; the document allows no other field, null or not."""
    arguments = {**MINIMAL[tool], "u½$": None}
    assert not _document_accepts(tool, arguments) and not arguments_conform(tool, arguments)
    error = _refusal(tool, arguments)
    assert error is not None and error.code == "invalid_request" and error.details["field"] == "u½$", error
