"""The daemon's call runner on a real store: cancellation kills the call's query, busy envelopes, launch_dir, codes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.asgi_scope import http_scope

from generated.models import SearchSessionsData
from generated.tools import TOOLS
from generated.validators import VALIDATORS
from handlers import Deps, HandlerEntry, Outcome, Settings, load_handlers
from moraine.access import Access
from moraine.daemon.admission import Admission
from moraine.daemon.cancel import CancellingRunner
from moraine.errors import CancelledError
from moraine.server.disconnect import CLIENT_CLOSED
from moraine.server.http_app import build_http_app
from moraine.server.mcp_app import build_mcp_server
from moraine.server.service import ToolReply, ToolService
from moraine.store.client import Store
from moraine.store.querytag import MARKER_PREFIX, QueryTag, current_tag

Handle = Callable[[Any, Deps], Outcome]
# Minutes of work on one thread: it only ends early if it is killed.
_ENDLESS = "SELECT sum(cityHash64(number)) FROM numbers(1000000000000)"
_DEADLINE = 30.0


@pytest.fixture
def control(store: Store) -> Iterator[Store]:
    """A second connection on the same database (the runner kills through it)."""
    other = Store(store.dsn, store.database)
    try:
        yield other
    finally:
        other.close()


def _empty(request: Any, deps: Deps) -> Outcome:
    return Outcome(SearchSessionsData(result_count=0, limit=request.n_hits, truncated=False, results=[]), [])


def _service(
    store: Store, control: Store, handle: Handle, admission: Admission, tool: str = "search_sessions"
) -> ToolService:
    """A service whose ``tool`` runs ``handle`` (every other tool answers empty), on a cancelling runner."""
    table = {
        name: HandlerEntry(entry.parse, entry.data_model, handle if name == tool else _empty)
        for name, entry in load_handlers().items()
    }
    runner = CancellingRunner(admission, control)
    return ToolService(Deps(store=store, settings=Settings(cursor_secret=b"s" * 32)), table, runner=runner)


def _running_marked(control: Store) -> int:
    rows = control.query(
        "SELECT count() FROM system.processes WHERE position(query, concat({p:String}, '')) > 0 "
        "AND position(query, 'system.processes') = 0",
        {"p": MARKER_PREFIX},
    )
    return int(rows[0][0])


def _endless(started: threading.Event) -> Handle:
    """Return a handler that runs a query only a kill ends (``started`` is set first)."""

    def endless(request: Any, deps: Deps) -> Outcome:
        started.set()
        deps.store.query(_ENDLESS, settings={"max_threads": 1})
        raise AssertionError("the endless query returned")

    return endless


def test_cancelling_a_call_kills_its_running_query_and_frees_its_slot(store: Store, control: Store) -> None:
    started = threading.Event()
    admission = Admission(1, 0)
    service = _service(store, control, _endless(started), admission)
    timings: dict[str, float] = {}

    async def main() -> None:
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(service.call, "search_sessions", {"query": "x"})
                deadline = time.monotonic() + _DEADLINE
                while not (started.is_set() and _running_marked(control) == 1):
                    assert time.monotonic() < deadline, "the endless query never showed in system.processes"
                    await anyio.sleep(0.05)
                timings["cancelled_at"] = time.monotonic()
                scope.cancel()
        timings["returned_at"] = time.monotonic()

    anyio.run(main)
    assert timings["returned_at"] - timings["cancelled_at"] < 10.0
    assert _running_marked(control) == 0
    assert admission.running == 0
    assert service.runner.cancelled_calls == 1  # type: ignore[attr-defined]


def test_a_cancelled_tag_lets_no_further_statement_start(store: Store) -> None:
    tag = QueryTag()
    tag.cancelled.set()
    token = current_tag.set(tag)
    try:
        with pytest.raises(CancelledError):
            store.query("SELECT 1")
    finally:
        current_tag.reset(token)
    assert store.query("SELECT 1") == [(1,)]


def test_a_full_queue_answers_a_valid_busy_envelope(store: Store, control: Store) -> None:
    release = threading.Event()
    entered = threading.Event()

    def blocking(request: Any, deps: Deps) -> Outcome:
        entered.set()
        assert release.wait(_DEADLINE)
        return _empty(request, deps)

    service = _service(store, control, blocking, Admission(1, 0))
    replies: list[ToolReply] = []

    async def first() -> None:
        replies.append(await service.call("search_sessions", {"query": "first"}))

    async def main() -> ToolReply:
        async with anyio.create_task_group() as group:
            group.start_soon(first)
            await anyio.to_thread.run_sync(entered.wait, _DEADLINE)
            busy = await service.call("search_sessions", {"query": "second"})
            release.set()
        return busy

    busy = anyio.run(main)
    assert busy.is_error and busy.envelope["error"]["code"] == "busy"
    assert busy.envelope["request"]["query"] == "second"
    VALIDATORS[TOOLS["search_sessions"].output_validator](busy.envelope)
    assert replies[0].is_error is False


def test_each_call_sees_the_launch_dir_it_was_given(store: Store, control: Store) -> None:
    seen: list[Path | None] = []

    def record(request: Any, deps: Deps) -> Outcome:
        seen.append(deps.launch_dir)
        return _empty(request, deps)

    service = _service(store, control, record, Admission(2, 2))

    async def main() -> None:
        await service.call("search_sessions", {"query": "a"}, launch_dir=Path("/work/project-a"))
        await service.call("search_sessions", {"query": "b"})

    anyio.run(main)
    assert seen == [Path("/work/project-a"), None]


@pytest.mark.parametrize(
    ("sql", "settings", "code"),
    [
        (
            "SELECT number FROM numbers(10)",
            {"max_result_rows": 1, "result_overflow_mode": "throw"},
            "resource_exhausted",
        ),
        (
            "SELECT number FROM numbers(100000)",
            {"max_result_bytes": 10, "result_overflow_mode": "throw"},
            "resource_exhausted",
        ),
        ("SELECT groupArray(number) FROM numbers(1000000)", {"max_memory_usage": 1}, "resource_exhausted"),
        ("SELECT count() FROM numbers(1000)", {"max_rows_to_read": 1}, "resource_exhausted"),
        ("SELECT * FROM system.no_such_table", {}, "backend_failure"),
    ],
)
def test_clickhouse_failures_map_to_their_envelope_codes(
    store: Store, control: Store, sql: str, settings: dict[str, Any], code: str
) -> None:
    def failing(request: Any, deps: Deps) -> Outcome:
        deps.store.query(sql, settings=settings)
        raise AssertionError("the query should have failed")

    service = _service(store, control, failing, Admission(1, 1))
    reply = anyio.run(service.call, "search_sessions", {"query": "x"})
    assert reply.is_error and reply.envelope["error"]["code"] == code
    VALIDATORS[TOOLS["search_sessions"].output_validator](reply.envelope)


def test_an_unreachable_clickhouse_server_is_a_backend_failure() -> None:
    from moraine.errors import StoreError

    with pytest.raises(StoreError) as caught:
        Store("http://127.0.0.1:1", "moraine")
    assert caught.value.code == "backend_failure"


@pytest.mark.parametrize(
    ("method", "path", "body", "tool"),
    [
        ("POST", "/v1/tools/search_sessions", b'{"query": "x"}', "search_sessions"),
        ("GET", "/v1/export/session:ses_8P46V0DKXM0VW", b"", "open"),  # the web page's transcript download
    ],
)
def test_a_facade_call_whose_client_disconnects_kills_its_query_and_frees_its_slot(
    store: Store, control: Store, tmp_path: Path, method: str, path: str, body: bytes, tool: str
) -> None:
    started = threading.Event()
    admission = Admission(1, 0)
    service = _service(store, control, _endless(started), admission, tool)
    access = Access.at(tmp_path / "http-secret")
    app = build_http_app(service, build_mcp_server(service), access)
    headers = [
        (b"host", b"127.0.0.1:8765"),
        (b"authorization", f"Bearer {access.secret.current()}".encode()),
    ]
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = http_scope(method, path, headers, ("127.0.0.1", 8765))
    sent: list[dict[str, Any]] = []
    timings: dict[str, float] = {}

    async def main() -> None:
        gone = anyio.Event()
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop(0)
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: Any) -> None:
            sent.append(message)

        async with anyio.create_task_group() as group:
            group.start_soon(app, scope, receive, send)
            deadline = time.monotonic() + _DEADLINE
            while not (started.is_set() and _running_marked(control) == 1 and admission.running == 1):
                assert time.monotonic() < deadline, "the endless query never showed in system.processes"
                await anyio.sleep(0.05)
            timings["gone_at"] = time.monotonic()
            gone.set()  # the client closes its connection
        timings["returned_at"] = time.monotonic()

    anyio.run(main)
    assert timings["returned_at"] - timings["gone_at"] < 10.0
    assert _running_marked(control) == 0  # the statement was killed
    assert admission.running == 0  # and the slot is free
    assert service.runner.cancelled_calls == 1  # type: ignore[attr-defined]
    assert sent[0]["status"] == CLIENT_CLOSED  # nobody reads it: logged as the client having left
