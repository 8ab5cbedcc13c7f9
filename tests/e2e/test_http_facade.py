"""The HTTP side, in-process: the facade returns the same envelopes as stdio; MCP over streamable HTTP works."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from stdio_session import SUCCESS_CALLS, StdioRun
from contract_rows import EMPTY_STORE_ROWS, VALIDATION_ROWS, Row
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from generated.tools import TOOLS
from handlers import Deps, Settings, load_handlers
from moraine.access import Access, RequestGuard
from moraine.server.http_app import build_facade_app, build_http_app
from moraine.server.mcp_app import build_mcp_server
from moraine.server.requests import arguments_conform
from moraine.server.service import ToolService
from moraine.store.client import Store

ROOT = Path(__file__).resolve().parents[2]
BASE = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def service(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolService]:
    """A service on real handlers over a fresh, empty store database (its own, not the per-test one)."""
    database = f"t_{uuid.uuid4().hex[:16]}"
    store = Store.open(store_dsn, database=database)
    launch = tmp_path_factory.mktemp("launch")
    try:
        yield ToolService(Deps(store, Settings(cursor_secret=b"h" * 32), launch_dir=launch), load_handlers())
    finally:
        store.command(f"DROP DATABASE IF EXISTS {database}")
        store.close()


def _post_all(service: ToolService, calls: dict[str, tuple[str, Any]]) -> dict[str, httpx2.Response]:
    async def run() -> dict[str, httpx2.Response]:
        transport = httpx2.ASGITransport(app=build_facade_app(service))
        async with httpx2.AsyncClient(transport=transport, base_url=BASE) as client:
            return {
                name: await client.post(f"/v1/tools/{tool}", json=args)
                for name, (tool, args) in calls.items()
            }

    return anyio.run(run)


def _comparable(envelope: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in envelope.items() if key != "performance"}


@pytest.fixture(scope="module")
def facade_replies(service: ToolService) -> dict[str, httpx2.Response]:
    rows = {row[0]: (row[1], row[2]) for row in [*VALIDATION_ROWS, *EMPTY_STORE_ROWS]}
    return _post_all(service, {**rows, **SUCCESS_CALLS})


@pytest.mark.parametrize("row", VALIDATION_ROWS + EMPTY_STORE_ROWS, ids=lambda row: row[0])
def test_facade_returns_the_same_error_envelope_as_stdio(
    facade_replies: dict[str, httpx2.Response], stdio_run: StdioRun, row: Row
) -> None:
    name, tool, arguments, code, _ = row
    reply = facade_replies[name]
    request_error = code in ("invalid_request", "invalid_id", "unsupported_event_type")
    conform = arguments_conform(
        tool, arguments
    )  # 400: breaks the schema; 422: a rule the schema cannot state
    assert reply.status_code == (400 if not conform else 422 if request_error else 200)
    envelope = reply.json()
    assert envelope["error"]["code"] == code
    stdio = stdio_run.results[name].structured_content
    assert stdio is not None
    assert _comparable(envelope) == _comparable(stdio)


@pytest.mark.parametrize(
    "name", ["search canonical request", "search n_hits 5.0 is the integer 5", "list defaults"]
)
def test_facade_returns_the_same_success_envelope_as_stdio(
    facade_replies: dict[str, httpx2.Response], stdio_run: StdioRun, name: str
) -> None:
    envelope = facade_replies[name].json()
    stdio = stdio_run.results[name].structured_content
    assert stdio is not None and envelope["schema_version"] == stdio["schema_version"]
    assert _comparable(envelope) == _comparable(stdio)


def test_facade_serves_the_generated_openapi_document(service: ToolService) -> None:
    async def run() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=build_facade_app(service))
        async with httpx2.AsyncClient(transport=transport, base_url=BASE) as client:
            return await client.get("/openapi.json")

    reply = anyio.run(run)
    assert reply.status_code == 200
    document = reply.json()
    assert document == json.loads((ROOT / "generated" / "openapi.json").read_text(encoding="utf-8"))
    assert sorted(document["paths"]) == sorted(f"/v1/tools/{tool}" for tool in TOOLS)


def test_facade_answers_bad_json_and_unknown_tools_with_error_envelopes(service: ToolService) -> None:
    async def run() -> tuple[httpx2.Response, httpx2.Response, httpx2.Response]:
        transport = httpx2.ASGITransport(app=build_facade_app(service))
        async with httpx2.AsyncClient(transport=transport, base_url=BASE) as client:
            bad = await client.post("/v1/tools/open", content=b"{not json")
            nan = await client.post("/v1/tools/search_sessions", content=b'{"query": "q", "n_hits": NaN}')
            unknown = await client.post("/v1/tools/delete_everything", json={})
            return bad, nan, unknown

    bad, nan, unknown = anyio.run(run)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_request"
    assert nan.status_code == 400 and nan.json()["error"]["code"] == "invalid_request"
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "invalid_request"


def test_every_request_error_is_a_4xx_with_the_envelope_even_deep_nesting_and_impossible_dates(
    service: ToolService, capfd: pytest.CaptureFixture[str]
) -> None:
    calls = {
        "deep": ("search_sessions", b"[" * 200_000),
        "deep_object": ("open", b'{"id": ' + b"[" * 200_000),
        "zero_date": (
            "file_attention",
            json.dumps({"path": "/tmp/x.py", "end_datetime": "0000-00-00T00:00:00Z"}).encode(),
        ),
        "bad_start": ("list_sessions", json.dumps({"start_datetime": "2026-13-45T99:00:00Z"}).encode()),
        "bad_id": ("open", json.dumps({"id": "session:ses_!!!!"}).encode()),
        "unknown_native_id": ("open", json.dumps({"id": "not-a-valid-id"}).encode()),
    }

    async def run() -> dict[str, httpx2.Response]:
        transport = httpx2.ASGITransport(app=build_facade_app(service))
        async with httpx2.AsyncClient(transport=transport, base_url=BASE) as client:
            return {
                name: await client.post(f"/v1/tools/{tool}", content=body)
                for name, (tool, body) in calls.items()
            }

    answers = anyio.run(run)
    for name, reply in answers.items():
        envelope = reply.json()
        # an impossible date breaks the published date-time format, a malformed ID the published ID shape (400);
        # a text of a harness session ID's shape that no stored session has is refused by the tool (422)
        assert reply.status_code == (422 if name == "unknown_native_id" else 400), (name, envelope)
        assert envelope["schema_version"] == "moraine.mcp.error.v1", name
        assert envelope["error"]["code"] in ("invalid_request", "invalid_id"), (name, envelope["error"])
    assert "Traceback" not in capfd.readouterr().err


def test_mcp_over_streamable_http_lists_tools_and_answers_calls(service: ToolService, tmp_path: Path) -> None:
    access = Access.at(tmp_path / "http-secret")
    gate = build_http_app(service, build_mcp_server(service), access)
    assert isinstance(gate, RequestGuard)
    app = gate.app
    headers = {"Authorization": f"Bearer {access.secret.current()}"}

    async def run() -> tuple[set[str], Any]:
        with anyio.fail_after(60):
            async with app.router.lifespan_context(app):  # type: ignore[attr-defined]
                transport = httpx2.ASGITransport(app=gate)
                async with httpx2.AsyncClient(transport=transport, base_url=BASE, headers=headers) as http:
                    async with Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client:
                        tools = await client.list_tools()
                        result = await client.call_tool("open", {"id": "not-a-valid-id"})
                        return {t.name for t in tools.tools}, result

    names, result = anyio.run(run)
    assert names == set(TOOLS)
    assert result.is_error is True and result.structured_content["error"]["code"] == "invalid_id"
