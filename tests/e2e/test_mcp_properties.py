"""Property tests at the MCP level: arguments generated from each tool's published inputSchema (valid and
near-valid) go through a real MCP client (in-memory for volume, a sample over stdio), on an ingested corpus.

Invariants: every result validates against the tool's outputSchema; a success echoes the input in its canonical
request (after the document's normalizations and defaults); a near-valid call is an error naming the broken field.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import anyio
import pytest
from fixtures.corpus.stdio import MORAINE, Home
from fixtures.served import CORPUS_DAY, served_corpus
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from schema_strategies import Breakage, near_valid_arguments, valid_arguments

from moraine.server.mcp_app import build_mcp_server
from moraine.server.service import ToolService

TOOLS = ["file_attention", "list_sessions", "open", "search_sessions"]
EVENT_ORDER = ["user_input", "assistant_response", "reasoning", "tool_call", "tool_response", "compaction", "system",
               "runtime"]  # fmt: skip
FIELD_CODES = {"invalid_request", "invalid_id", "unsupported_event_type"}
REQUEST_CODES = FIELD_CODES | {"not_found"}
EXAMPLES = 60
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],  # no shrinking: the assertion messages carry the failing call
)
Result = tuple[bool, dict[str, Any]]


class World:
    """The in-memory server, its tools as the client lists them, and real values to draw from."""

    def __init__(self, service: ToolService) -> None:
        self.server = build_mcp_server(service)
        self.tools: dict[str, Any] = {}
        self.samples: dict[str, list[Any]] = {}
        self.seen: list[tuple[str, dict[str, Any]]] = []

    def calls(self, calls: list[tuple[str, dict[str, Any]]]) -> list[Result]:
        """Make ``calls`` through one in-memory MCP client session."""

        async def run() -> list[Result]:
            async with Client(self.server) as client:
                return [_result(await client.call_tool(tool, args)) for tool, args in calls]

        return anyio.run(run)


def _result(result: Any) -> Result:
    assert isinstance(result.structured_content, dict), result
    return bool(result.is_error), dict(result.structured_content)


@pytest.fixture(scope="module")
def world(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with served_corpus(store_dsn, tmp_path_factory.mktemp("properties-corpus")) as service:
        world = World(service)

        async def discover() -> None:
            async with Client(world.server) as client:
                world.tools = {tool.name: tool for tool in (await client.list_tools()).tools}
                results = []
                for query in ("retry", "migration", "shard healthy", "parseConfigFile", "step"):
                    args = {"query": query, "n_hits": 20, "event_types": EVENT_ORDER}
                    results.extend(
                        _result(await client.call_tool("search_sessions", args))[1]["data"]["results"]
                    )
                listed = _result(await client.call_tool("list_sessions", {**CORPUS_DAY, "limit": 2}))[1]
                opened = _result(await client.call_tool("open", {"id": results[0]["open"]["turn_id"],
                                                                  "limit": 1}))[1]  # fmt: skip
                ids = [h["open"][k] for h in results for k in ("event_id", "turn_id", "session_id")]
                ids = sorted(set(ids))
                world.samples = {
                    "id": ids,
                    "within_id": ids,
                    "cursor": [opened["data"]["next_cursor"]],
                    "query": ["retry loop", "parseConfigFile", "shard healthy", "migration"],
                    "harness": ["codex", "claude-code"],
                    "source": ["codex", "claude"],
                    "path": ["src/config/parser.py", "README.md"],
                    "tool": ["apply_patch", "exec_command"],
                    "start_datetime": [CORPUS_DAY["start_datetime"]],
                    "end_datetime": [CORPUS_DAY["end_datetime"]],
                }
                if listed["data"]["next_cursor"]:
                    world.samples["cursor"].append(listed["data"]["next_cursor"])

        anyio.run(discover)
        assert len(world.samples["id"]) >= 20, "the corpus must give search hits to draw IDs from"
        yield world


def _schema(world: World, tool: str, kind: str) -> dict[str, Any]:
    schema = world.tools[tool].input_schema if kind == "input" else world.tools[tool].output_schema
    assert isinstance(schema, dict), f"{tool} publishes no {kind} schema"
    return schema


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def expected_echo(tool: str, key: str, value: Any, default: Any) -> Any:
    """Return what the canonical request should hold for ``key`` given the caller's ``value``."""
    if value is None:
        return default  # None: a server-configured default (e.g. file_attention limit); checked by the schema
    if tool == "search_sessions" and key == "query":
        return value.strip()
    if key == "event_types":
        return [kind for kind in EVENT_ORDER if kind in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def check_envelope(world: World, tool: str, args: dict[str, Any], result: Result) -> None:
    """Assert the invariants every answer to a schema-valid call must hold."""
    is_error, envelope = result
    errors = list(Draft202012Validator(_schema(world, tool, "output")).iter_errors(envelope))
    assert not errors, (tool, args, [e.message[:200] for e in errors[:3]])
    assert is_error == ("error" in envelope), envelope
    if is_error:
        error = envelope["error"]
        assert error["code"] in REQUEST_CODES, (tool, args, error)
        if error["code"] in FIELD_CODES:
            assert error["details"].get("field") in _schema(world, tool, "input")["properties"], (
                tool,
                args,
                error,
            )
        return
    properties = _schema(world, tool, "input")["properties"]
    for key, value in args.items():
        want = expected_echo(tool, key, value, properties[key].get("default"))
        if want is None and envelope["request"].get(key) is None:
            continue  # omitted or null either way
        if value is None and "default" not in properties[key]:
            continue  # a server-configured default (e.g. file_attention limit); the output schema checked it
        echoed = envelope["request"][key]
        if key.endswith("_datetime") and isinstance(want, str):
            assert _instant(echoed) == _instant(want), (tool, key, value, echoed)
        else:
            assert echoed == want, (tool, key, value, echoed)


@pytest.mark.slow
@pytest.mark.parametrize("tool", TOOLS)
def test_valid_arguments_get_schema_valid_answers_echoing_the_canonical_request(
    world: World, tool: str
) -> None:
    outcomes: dict[str, int] = {}

    @SETTINGS
    @given(args=valid_arguments(_schema(world, tool, "input"), world.samples))
    def run(args: dict[str, Any]) -> None:
        (result,) = world.calls([(tool, args)])
        world.seen.append((tool, args))
        check_envelope(world, tool, args, result)
        key = result[1]["error"]["code"] if result[0] else "ok"
        outcomes[key] = outcomes.get(key, 0) + 1

    run()
    assert sum(outcomes.values()) >= EXAMPLES and outcomes.get("ok", 0) > 0, outcomes


def _bases(world: World, tool: str) -> st.SearchStrategy[dict[str, Any]] | None:
    """Return realistic valid calls of ``open`` and ``list_sessions`` (their schemas alone rarely give a call the
    server accepts: random IDs are unknown, random datetime pairs are mostly empty or reversed ranges)."""
    if tool == "list_sessions":
        window = {
            "start_datetime": st.just("2000-01-01T00:00:00Z"),
            "end_datetime": st.just("2100-01-01T00:00:00Z"),
        }
        return st.one_of(
            st.fixed_dictionaries(window),
            st.fixed_dictionaries(
                {**window, "limit": st.integers(1, 50), "sort": st.sampled_from(["asc", "desc"])}
            ),
        )
    if tool != "open":
        return None
    ids = st.sampled_from(world.samples["id"])
    containers = st.sampled_from([i for i in world.samples["id"] if not i.startswith("event:")])
    return st.one_of(
        st.fixed_dictionaries({"id": ids}),
        st.fixed_dictionaries({"id": containers, "limit": st.integers(1, 50)}),
        st.fixed_dictionaries({"cursor": st.sampled_from(world.samples["cursor"])}),
    )


@pytest.mark.slow
@pytest.mark.parametrize("tool", TOOLS)
def test_near_valid_arguments_get_errors_naming_the_broken_field(world: World, tool: str) -> None:
    named = {"broken field": 0, "base already invalid": 0}

    @SETTINGS
    @given(case=near_valid_arguments(_schema(world, tool, "input"), world.samples, _bases(world, tool)))
    def run(case: tuple[dict[str, Any], dict[str, Any], Breakage]) -> None:
        base, args, broken = case
        (base_error, _), (is_error, envelope) = world.calls([(tool, base), (tool, args)])
        errors = list(Draft202012Validator(_schema(world, tool, "output")).iter_errors(envelope))
        assert not errors, (tool, args, [e.message[:200] for e in errors[:3]])
        assert is_error and envelope["error"]["code"] in FIELD_CODES, (tool, args, broken, envelope)
        if (
            base_error
        ):  # the valid base already failed a semantic rule: any named field of the request will do
            named["base already invalid"] += 1
            fields = {*_schema(world, tool, "input")["properties"], broken.field}
            assert envelope["error"]["details"].get("field") in fields, (envelope["error"], broken)
            return
        named["broken field"] += 1
        assert envelope["error"]["details"].get("field") == broken.field, (
            tool,
            args,
            broken,
            envelope["error"],
        )

    run()
    assert named["broken field"] >= EXAMPLES // 4, named


@pytest.mark.slow
def test_a_sample_of_generated_calls_holds_the_invariants_over_stdio(world: World, corpus_home: Home) -> None:
    sample = [call for call in world.seen if "cursor" not in call[1]][:: max(1, len(world.seen) // 40)][:40]
    assert len(sample) >= 20, "run the in-memory properties first (same module)"
    home = corpus_home  # the same trace corpus as the in-memory world's, ingested with `moraine ingest`
    params = StdioServerParameters(command=str(MORAINE), args=["mcp"], env=home.env(), cwd=str(home.path))

    async def run() -> list[Result]:
        async with Client(params, read_timeout_seconds=120) as client:
            return [_result(await client.call_tool(tool, args)) for tool, args in sample]

    results = anyio.run(run)
    for (tool, args), result in zip(sample, results, strict=True):
        check_envelope(world, tool, args, result)
    assert any(not is_error for is_error, _ in results)
