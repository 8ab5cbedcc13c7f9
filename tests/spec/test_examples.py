"""spec/examples validate with jsonschema (2020-12) and the generated fast validators; broken documents fail both."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from codegen.load import Spec, load
from generated.validators import VALIDATORS, JsonSchemaValueException
from moraine.server.requests import drop_null_options

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "spec" / "examples").rglob("*.json"))
SPEC = load(ROOT / "spec")


def _module(title: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", title).lower()


def _fast(spec: Spec, name: str) -> Callable[[Any], Any]:
    """Return the generated validator of a schema document, or (for a $defs entry) one compiled the same way."""
    generated = VALIDATORS.get(_module(name))
    if generated is not None:
        return generated
    return fastjsonschema.compile(spec.bundle(name), use_default=False, use_formats=False)


def _fast_accepts(name: str, document: Any) -> bool:
    try:
        _fast(SPEC, name)(copy.deepcopy(document))
    except JsonSchemaValueException:
        return False
    return True


def _jsonschema_errors(name: str, document: Any) -> list[str]:
    return [e.message for e in Draft202012Validator(SPEC.bundle(name)).iter_errors(document)]


def _example(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def test_examples_cover_every_tool_and_the_error_envelope() -> None:
    schemas = {_example(p)["schema"] for p in EXAMPLES}
    assert len(EXAMPLES) >= 30
    for tool in ("SearchSessions", "ListSessions", "FileAttention"):
        assert {f"{tool}Response", f"{tool}Arguments"} <= schemas
    assert {"ErrorEnvelope", "OpenResponse", "SearchHit", "TurnSummary", "EventSummary"} <= schemas


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "spec" / "examples")))
def test_example_validates_with_jsonschema_and_the_fast_validator(path: Path) -> None:
    example = _example(path)
    assert set(example) == {"$comment", "schema", "source", "completed", "document"}
    assert example["completed"] == [] or "Completed" in example["$comment"]
    document = example["document"]
    if example["schema"].endswith("Arguments"):  # an optional argument sent as null is taken as left out
        document = drop_null_options(document, SPEC.bundle(example["schema"]))
    assert _jsonschema_errors(example["schema"], document) == []
    assert _fast_accepts(example["schema"], document)


def _load_example(rel: str) -> Any:
    return _example(ROOT / "spec" / "examples" / rel)["document"]


def _broken(rel: str, edit: Callable[[Any], None]) -> Any:
    document = copy.deepcopy(_load_example(rel))
    edit(document)
    return document


def _set(path: str, value: Any) -> Callable[[Any], None]:
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]

    def edit(document: Any) -> None:
        node = document
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return edit


def _drop(path: str) -> Callable[[Any], None]:
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]

    def edit(document: Any) -> None:
        node = document
        for key in keys[:-1]:
            node = node[key]
        del node[keys[-1]]

    return edit


SEARCH = "search_sessions/response-default-global-search.json"
OPEN_EVENT = "open/response-event-tool-call.json"
OPEN_TURN = "open/response-turn-complete.json"
LIST = "list_sessions/response-shape.json"
ATTENTION = "file_attention/response-shape.json"
ERROR = "search_sessions/error-unsupported-event-type.json"
BROKEN: list[tuple[str, str, Any]] = [
    (
        "hit without session harness",
        "SearchSessionsResponse",
        _broken(SEARCH, _drop("data.results.0.session.harness")),
    ),
    ("score above 1", "SearchSessionsResponse", _broken(SEARCH, _set("data.results.0.score", 1.5))),
    ("rank zero", "SearchSessionsResponse", _broken(SEARCH, _set("data.results.0.rank", 0))),
    (
        "timestamp without milliseconds",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("data.results.0.event.timestamp", "2026-04-29T18:42:31Z")),
    ),
    (
        "timestamp with offset",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("data.results.0.session.started_at", "2026-04-29T18:41:55.000+02:00")),
    ),
    (
        "event id without kind prefix",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("data.results.0.id", "evt_1")),
    ),
    (
        "unknown event type",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("data.results.0.event.type", "debug")),
    ),
    (
        "extra key in a hit",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("data.results.0.payload", "full text")),
    ),
    (
        "wrong schema_version",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("schema_version", "moraine.mcp.open.v1")),
    ),
    ("missing warnings", "SearchSessionsResponse", _broken(SEARCH, _drop("warnings"))),
    ("warning not a string", "SearchSessionsResponse", _broken(SEARCH, _set("warnings", [{"text": "x"}]))),
    ("negative elapsed_ms", "SearchSessionsResponse", _broken(SEARCH, _set("performance.elapsed_ms", -1))),
    ("request missing n_hits", "SearchSessionsResponse", _broken(SEARCH, _drop("request.n_hits"))),
    (
        "request with unknown event type",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("request.event_types", ["unknown"])),
    ),
    (
        "request with duplicate event types",
        "SearchSessionsResponse",
        _broken(SEARCH, _set("request.event_types", ["user_input", "user_input"])),
    ),
    ("open kind blob", "OpenResponse", _broken(OPEN_EVENT, _set("data.kind", "blob"))),
    (
        "event content format binary",
        "OpenResponse",
        _broken(OPEN_EVENT, _set("data.content.format", "binary")),
    ),
    ("event open with turns", "OpenResponse", _broken(OPEN_EVENT, _set("data.turns", []))),
    ("turn open without traversal", "OpenResponse", _broken(OPEN_TURN, _drop("data.traversal"))),
    ("turn event ordinal zero", "OpenResponse", _broken(OPEN_TURN, _set("data.events.0.ordinal", 0))),
    (
        "list session bad mode",
        "ListSessionsResponse",
        _broken(LIST, _set("data.sessions.0.session.mode", "poetry")),
    ),
    (
        "list session empty display_label",
        "ListSessionsResponse",
        _broken(LIST, _set("data.sessions.0.session.display_label", "")),
    ),
    (
        "list session with snippet",
        "ListSessionsResponse",
        _broken(LIST, _set("data.sessions.0.snippet", "text")),
    ),
    (
        "list harness not normalized",
        "ListSessionsResponse",
        _broken(LIST, _set("data.sessions.0.session.harness", "Claude Code")),
    ),
    (
        "attention summary without total",
        "FileAttentionResponse",
        _broken(ATTENTION, _drop("data.summary.total_touches")),
    ),
    (
        "attention row without event_id",
        "FileAttentionResponse",
        _broken(ATTENTION, _drop("data.events.0.open.event_id")),
    ),
    ("error code teapot", "ErrorEnvelope", _broken(ERROR, _set("error.code", "teapot"))),
    ("error without details", "ErrorEnvelope", _broken(ERROR, _drop("error.details"))),
    ("error empty message", "ErrorEnvelope", _broken(ERROR, _set("error.message", ""))),
    ("error retry_after_ms zero", "ErrorEnvelope", _broken(ERROR, _set("error.details.retry_after_ms", 0))),
    ("search arguments blank query", "SearchSessionsArguments", {"query": " \t "}),
    ("search arguments query too long", "SearchSessionsArguments", {"query": "q" * 4097}),
    ("search arguments n_hits 51", "SearchSessionsArguments", {"query": "q", "n_hits": 51}),
    ("search arguments n_hits 93.0", "SearchSessionsArguments", {"query": "q", "n_hits": 93.0}),
    ("search arguments n_hits 2.5", "SearchSessionsArguments", {"query": "q", "n_hits": 2.5}),
    ("search arguments n_hits true", "SearchSessionsArguments", {"query": "q", "n_hits": True}),
    ("search arguments empty event_types", "SearchSessionsArguments", {"query": "q", "event_types": []}),
    (
        "search arguments unknown event type",
        "SearchSessionsArguments",
        {"query": "q", "event_types": ["unknown"]},
    ),
    ("search arguments unknown field", "SearchSessionsArguments", {"query": "q", "bogus": 1}),
    ("search arguments blank harness", "SearchSessionsArguments", {"query": "q", "harness": ""}),
    ("list arguments missing end", "ListSessionsArguments", {"start_datetime": "2026-04-30T09:00:00Z"}),
    (
        "list arguments no timezone",
        "ListSessionsArguments",
        {"start_datetime": "2026-04-30T09:00:00", "end_datetime": "2026-04-30T13:00:00Z"},
    ),
    (
        "list arguments bad sort",
        "ListSessionsArguments",
        {"start_datetime": "2026-04-30T09:00:00Z", "end_datetime": "2026-04-30T13:00:00Z", "sort": "up"},
    ),
    (
        "attention arguments sub-millisecond",
        "FileAttentionArguments",
        {"path": "a.py", "start_datetime": "2026-01-01T00:00:00.0001Z"},
    ),
    ("attention arguments bad scope", "FileAttentionArguments", {"path": "a.py", "scope": "galaxy"}),
    ("attention arguments empty path", "FileAttentionArguments", {"path": ""}),
    ("open arguments unknown field", "OpenArguments", {"id": "session:x", "bogus": 1}),
    ("open arguments blank cursor", "OpenArguments", {"cursor": "  "}),
    ("open arguments limit zero", "OpenArguments", {"id": "session:x", "limit": 0}),
]


@pytest.mark.parametrize(("name", "schema", "document"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_document_is_rejected_by_jsonschema_and_the_fast_validator(
    name: str, schema: str, document: Any
) -> None:
    assert _jsonschema_errors(schema, document) != []
    assert not _fast_accepts(schema, document)


_VALUES = st.sampled_from(
    [None, "", " ", "x", "q" * 4097, -1, 0, 1, 5.0, 50, 51, 93.0, 2.5, 1e308, True, [], {}, ["user_input"],
     ["unknown"], ["user_input", "user_input"], "session:abc", "event:evt_1", "2026-01-01T00:00:00Z",
     "2026-01-01T00:00:00", "2026-01-01T00:00:00.1234Z", "2026-13-45T99:00:00Z", "project", "events", "desc",
     "chat", "\u0000", "🦀", {"$ne": 1}, [1, 2, 3]]
)  # fmt: skip
_ARGUMENT_SCHEMAS = [
    "SearchSessionsArguments",
    "OpenArguments",
    "ListSessionsArguments",
    "FileAttentionArguments",
]


@settings(max_examples=300, deadline=None)
@given(
    schema=st.sampled_from(_ARGUMENT_SCHEMAS),
    keys=st.lists(
        st.sampled_from(
            [
                "query",
                "within_id",
                "event_types",
                "harness",
                "source",
                "n_hits",
                "id",
                "limit",
                "cursor",
                "start_datetime",
                "end_datetime",
                "mode",
                "sort",
                "path",
                "scope",
                "granularity",
                "tool",
                "mutations_only",
                "bogus",
            ]
        ),
        max_size=6,
        unique=True,
    ),  # fmt: skip
    data=st.data(),
)
def test_jsonschema_and_the_fast_validator_agree_on_arbitrary_arguments(
    schema: str, keys: list[str], data: st.DataObject
) -> None:
    document = {key: data.draw(_VALUES) for key in keys}
    assert (_jsonschema_errors(schema, document) == []) == _fast_accepts(schema, document)
