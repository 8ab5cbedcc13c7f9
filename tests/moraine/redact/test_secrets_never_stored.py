"""Secrets planted in three harnesses' traces reach no table and no tool answer after the product's own ingest.

The corpus (``secrets_corpus``) holds 40+ secrets of 25+ kinds; the traces (``planted_traces``) put each one in user
text, shell commands and their output, files written by tools, a session title, a pending compaction summary (adapter
checkpoint state) and an unparseable line (an ingest error). Afterwards every String column of every table (found
through ``system.columns``, so a table added later is scanned too) holds none of them, and neither do the answers of
``search_sessions``, ``open`` (every session, turn and event) and ``file_attention``, nor what the web page gets
from the HTTP facade (its searches and its Markdown export of every session).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest

from fixtures.handler_data import file_attention_data, search_data
from generated.models import SearchableEventType
from handlers import Deps, Settings, load_handlers
from moraine.ids import session_id
from moraine.ingest.pipeline import ingest_paths
from moraine.server.http_app import build_facade_app
from moraine.server.service import ToolReply, ToolService
from moraine.store.client import Store
from moraine.store.reads.search import Bm25
from tests.fixtures.requests import attention_request, search_request
from tests.moraine.redact.planted_traces import ENV_FILE, write_claude_code, write_codex, write_qwen
from tests.moraine.redact.secrets_corpus import secrets_corpus

SECRETS = secrets_corpus()
NEEDLES = sorted({needle for secret in SECRETS for needle in secret.needles})
_STRING_TYPE = "match(type, '^(Nullable\\\\(|LowCardinality\\\\()*(String|Array\\\\(|Map\\\\()')"


@pytest.fixture(scope="module", params=[0, 2], ids=["in-process", "two-workers"])
def planted(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, store_dsn: str
) -> Iterator[Store]:
    """A fresh store holding the three harnesses' traces, ingested with redaction on (the default), in this process
    or by two ingest worker processes (they redact before anything reaches the store's owner)."""
    root = tmp_path_factory.mktemp("planted")
    database = f"t_{uuid.uuid4().hex[:16]}"
    store = Store.open(store_dsn, database=database)
    traces = {
        "claude-code": write_claude_code(root, SECRETS),
        "codex": write_codex(root, SECRETS),
        "qwen-code": write_qwen(root, SECRETS),
    }
    for harness, folder in traces.items():
        summary = ingest_paths(
            store, [folder], source=harness, harness=harness, workers=request.param, worker_min_bytes=0
        )
        assert summary.workers == request.param  # the pass did run in the workers
    try:
        yield store
    finally:
        store.command(f"DROP DATABASE IF EXISTS {database}")
        store.close()


KINDS = ("session", "turn", "event")


@dataclass(frozen=True, slots=True)
class Exported:
    """Every session of a planted store exported as Markdown through the HTTP facade, and every ``open`` answer
    (envelope) the export's walk got on the way: each session's and each turn's pages, and each event alone."""

    service: ToolService
    documents: list[httpx2.Response]
    opened: list[dict[str, Any]]


@pytest.fixture(scope="module")
def exported(planted: Store, tmp_path_factory: pytest.TempPathFactory) -> Exported:
    """Export every session once (the export opens every event alone: the slowest walk here), keeping what ``open``
    answered, for the tests of ``open`` and of the facade."""
    service = ToolService(
        Deps(
            planted,
            Settings(cursor_secret=b"f" * 32),
            launch_dir=tmp_path_factory.mktemp("facade"),
        ),
        load_handlers(),
    )
    answer = service.call
    opened: list[dict[str, Any]] = []

    async def call(tool: str, arguments: Any, *args: Any, **kwargs: Any) -> ToolReply:
        reply = await answer(tool, arguments, *args, **kwargs)
        if tool == "open":
            opened.append(reply.envelope)
        return reply

    service.call = call  # type: ignore[method-assign]
    keys = [row[0] for row in planted.query(f"SELECT session_key FROM {planted.table('sessions')} FINAL")]

    async def run() -> list[httpx2.Response]:
        transport = httpx2.ASGITransport(app=build_facade_app(service))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
            return [await client.get(f"/v1/export/{session_id(key)}?format=md") for key in keys]

    documents = anyio.run(run)
    service.call = answer  # type: ignore[method-assign]
    return Exported(service, documents, opened)


def _leaks(value: Any) -> list[str]:
    text = json.dumps(value, ensure_ascii=False)
    return [needle for needle in NEEDLES if needle in text]


def test_the_corpus_is_large_and_varied_enough() -> None:
    assert len(SECRETS) >= 40
    assert len({secret.kind for secret in SECRETS}) >= 25


def test_every_harness_was_ingested_with_its_secrets_redacted(planted: Store) -> None:
    rows = planted.query(
        f"SELECT s.harness, count(), countIf(position(e.text, '[REDACTED:') > 0) "
        f"FROM {planted.table('events')} AS e JOIN {planted.table('sessions')} AS s FINAL USING session_key "
        "GROUP BY s.harness ORDER BY s.harness"
    )
    assert [r[0] for r in rows] == ["claude-code", "codex", "qwen-code"]
    assert all(events >= len(SECRETS) and redacted >= len(SECRETS) for _, events, redacted in rows)
    errors = planted.query(f"SELECT count() FROM {planted.table('ingest_errors')}")
    assert errors[0][0] >= 1  # the unparseable line was recorded (its detail is scanned below)
    state = planted.query(
        f"SELECT state FROM {planted.table('checkpoints')} WHERE state LIKE '%pending_summaries%'"
    )
    assert state, "the Claude Code summary should be waiting in the checkpoint state"


def test_no_string_column_of_any_table_holds_a_secret(planted: Store) -> None:
    columns = planted.query(
        f"SELECT table, name FROM system.columns WHERE database = {{db:String}} AND {_STRING_TYPE} "
        "ORDER BY table, name",
        {"db": planted.database},
    )
    tables = {table for table, _ in columns}
    assert {"events", "sessions", "turns", "touches", "postings", "checkpoints", "ingest_errors"} <= tables
    found: dict[str, list[str]] = {}
    for table, column in columns:
        rows = planted.query(
            f"SELECT toString(`{column}`) FROM {planted.table(table)} "
            f"WHERE multiSearchAny(toString(`{column}`), {{needles:Array(String)}})",
            {"needles": NEEDLES},
        )
        leaked = sorted({needle for (value,) in rows for needle in NEEDLES if needle in value})
        if leaked:
            found[f"{table}.{column}"] = leaked
    assert found == {}


def test_search_finds_no_secret(planted: Store) -> None:
    for needle in NEEDLES:
        data = search_data(
            planted,
            search_request(query=needle[:200], event_types=[t.value for t in SearchableEventType], n_hits=20),
            bm25=Bm25(),
            snippet_chars=400,
        )
        assert _leaks(data) == [], needle


def test_open_shows_no_secret_in_any_session_turn_or_event(exported: Exported) -> None:
    opened = {kind: [reply for reply in exported.opened if reply["data"]["kind"] == kind] for kind in KINDS}
    assert exported.opened and all("error" not in reply for reply in exported.opened)
    assert len({reply["data"]["session"]["id"] for reply in opened["session"]}) == 3
    assert len({reply["data"]["turn"]["id"] for reply in opened["turn"]}) >= 3 * len(SECRETS)
    listed = {event["id"] for reply in opened["turn"] for event in reply["data"]["events"]}
    alone = {reply["data"]["event"]["id"] for reply in opened["event"]}
    assert alone == listed and len(alone) >= 3 * len(SECRETS)  # every event of every turn, opened alone
    assert [needle for reply in exported.opened for needle in _leaks(reply)] == []


def test_file_attention_shows_no_secret(planted: Store) -> None:
    data = file_attention_data(
        planted,
        attention_request(max_results=500, path=ENV_FILE, scope="all", granularity="events", limit=500),
        launch_dir=str(Path(ENV_FILE).parent),
    )
    assert data.data["summary"]["distinct_sessions"] == 3  # every harness's writes were found
    assert data.data["result_count"] >= len(SECRETS)
    assert _leaks(data.data) == []


def test_the_facade_and_the_pages_export_show_no_secret(planted: Store, exported: Exported) -> None:
    async def run() -> list[httpx2.Response]:
        transport = httpx2.ASGITransport(app=build_facade_app(exported.service))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
            return [
                await client.post("/v1/tools/search_sessions", json={"query": needle[:200], "n_hits": 20})
                for needle in NEEDLES
            ]

    searches = anyio.run(run)
    exports = exported.documents
    assert [r.status_code for r in searches + exports] == [200] * (len(NEEDLES) + 3)
    answers = [{k: v for k, v in r.json().items() if k != "request"} for r in searches]  # the query is echoed
    assert sum(len(answer["data"]["results"]) for answer in answers) > 0  # the searches find redacted events
    assert all("[REDACTED:" in r.text for r in exports)
    assert [needle for answer in answers for needle in _leaks(answer)] == []
    assert [needle for r in exports for needle in NEEDLES if needle in r.text] == []
