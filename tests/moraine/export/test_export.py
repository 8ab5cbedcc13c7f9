"""``moraine.export`` on a real Claude Code fixture session with planted secrets: Markdown and HTML goldens.

The fixture is copied, one user message gets an OpenAI project key and an AWS access key planted in it, and the
copy is ingested through the real pipeline (which redacts); the exporter then walks the session with ``open`` on a
``ToolService`` over that store. Set ``MORAINE_REGEN_GOLDENS=1`` to rewrite the goldens (review the diff like code):

    MORAINE_REGEN_GOLDENS=1 .venv/bin/pytest tests/moraine/export
"""

from __future__ import annotations

import os
import json
import re
import shutil
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from starlette.applications import Starlette

from handlers import Deps, Settings, load_handlers
from moraine.export.document import export_document
from moraine.export.walk import ExportError
from moraine.ids import session_id, session_key
from moraine.server.service import ToolService
from moraine.store.client import Store
from moraine.web.export import export_route

FIXTURE = Path(__file__).resolve().parents[2] / "harnesses" / "claude_code" / "home" / ".claude" / "projects"
GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN = os.environ.get("MORAINE_REGEN_GOLDENS") == "1"
SESSION_ID = "session:ses_8P46V0DKXM0VW"  # "Coupon fix" (5f0c2a9e-...): four turns, tool calls and outputs
# Built here so that no literal key sits in the repository; both shapes are ones the redactor recognizes.
OPENAI_KEY = "sk-proj-" + "Q7vT2mX9pL4sN8wR1kY6bZ3c"
AWS_KEY = "AKIA" + "Z5QW7ERT2YUI9OPA"
PLANTED = f"start with ledgerwidget. Staging uses {OPENAI_KEY} and {AWS_KEY}."


@pytest.fixture
def service(store: Store, ingest_into_store: Any, tmp_path: Path) -> ToolService:
    """Ingest the fixture with the planted secrets; return the tools over the store."""
    shutil.copytree(FIXTURE, tmp_path / "projects")
    trace = next((tmp_path / "projects").rglob("5f0c2a9e-*.jsonl"))
    text = trace.read_text(encoding="utf-8")
    assert text.count("start with ledgerwidget.") == 1
    trace.write_text(text.replace("start with ledgerwidget.", PLANTED), encoding="utf-8")
    summary = ingest_into_store([tmp_path / "projects"], source="claude", harness="claude-code")
    assert summary.events > 40
    return ToolService(Deps(store, Settings(cursor_secret=b"export!!" * 4)), load_handlers())


def _export(service: ToolService, target_id: str, document_format: str, page_size: int = 50) -> str:
    async def run() -> str:
        return await export_document(service.call, target_id, document_format, page_size)

    return anyio.run(run)


def _check_golden(name: str, document: str) -> None:
    path = GOLDEN / name
    if REGEN:
        path.write_text(document, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert document == expected, f"{name} differs from its golden; regenerate with MORAINE_REGEN_GOLDENS=1"


@pytest.mark.parametrize("document_format", ["md", "html"])
def test_a_session_exports_as_its_golden_transcript_with_the_planted_secrets_redacted(
    service: ToolService, document_format: str
) -> None:
    document = _export(service, SESSION_ID, document_format)
    assert OPENAI_KEY not in document and AWS_KEY not in document
    assert "[REDACTED:openai-api-key]" in document and "[REDACTED:aws-access-token]" in document
    folded = "<details>" if document_format == "md" else '<details class="event tool_call">'
    assert folded in document and "Tool call: Bash" in document
    _check_golden(f"coupon-fix.{document_format}", document)


def test_paging_one_item_at_a_time_gives_the_same_transcript(service: ToolService) -> None:
    assert _export(service, SESSION_ID, "md", page_size=1) == _export(service, SESSION_ID, "md")


def test_a_turn_exports_alone_under_its_session_title(service: ToolService) -> None:
    async def first_turn() -> str:
        reply = await service.call("open", {"id": SESSION_ID, "limit": 1})
        return str(reply.envelope["data"]["turns"][0]["id"])

    document = _export(service, anyio.run(first_turn), "md")
    assert document.startswith("# Turn 1 of Coupon fix\n")
    assert "## Turn 1" in document and "## Turn 2" not in document
    assert "[REDACTED:openai-api-key]" in document


def test_text_that_looks_like_markup_is_escaped_in_html(service: ToolService) -> None:
    document = _export(service, SESSION_ID, "html")
    body = document.split("<body>", 1)[1]
    assert "<script" not in body
    # Every element in the body is one the renderer writes; transcript text never adds one.
    assert set(re.findall(r"<([a-z0-9]+)[\s>]", body)) <= {
        "header",
        "h1",
        "dl",
        "dt",
        "dd",
        "code",
        "article",
        "h2",
        "time",
        "details",
        "summary",
        "pre",
        "section",
        "h3",
        "div",
    }


MARKUP = 'Run <script>alert("x")</script> & <img src=x onerror="steal()"> now'


def test_text_that_looks_like_markup_is_escaped_in_markdown(
    service: ToolService, ingest_into_store: Any, tmp_path: Path
) -> None:
    uuid = "0196a000-0000-7000-8000-0000000000ee"
    trace = tmp_path / "codex" / f"rollout-2026-04-29T21-00-00-{uuid}.jsonl"
    trace.parent.mkdir()
    records = [
        {
            "timestamp": "2026-04-29T21:00:00.000Z",
            "type": "session_meta",
            "payload": {"id": uuid, "cwd": "/w"},
        },
        {
            "timestamp": "2026-04-29T21:00:01.000Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": MARKUP},
        },
        {
            "timestamp": "2026-04-29T21:00:02.000Z",
            "type": "event_msg",
            "payload": {"type": "agent_message", "message": "<b>done</b>"},
        },
    ]
    trace.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert ingest_into_store([trace], source="codex", harness="codex").events >= 2
    document = _export(service, session_id(session_key("codex", uuid)), "md")
    assert '&lt;script&gt;alert("x")&lt;/script&gt; &amp; &lt;img' in document
    assert "&lt;b&gt;done&lt;/b&gt;" in document
    # Every tag in the document is one the renderer writes; transcript text never adds one.
    assert set(re.findall(r"<([a-z0-9]+)[\s>]", document)) <= {"details", "summary"}


@pytest.mark.parametrize(
    ("target_id", "code"),
    [("session:not-an-id", "invalid_id"), (session_id(12345), "not_found")],
)
def test_a_bad_id_fails_with_the_tool_error(service: ToolService, target_id: str, code: str) -> None:
    with pytest.raises(ExportError) as raised:
        _export(service, target_id, "md")
    assert raised.value.envelope is not None and raised.value.envelope["error"]["code"] == code


def test_an_event_id_is_refused_with_its_turn_named(service: ToolService) -> None:
    async def an_event() -> tuple[str, str]:
        reply = await service.call("search_sessions", {"query": "coupon", "n_hits": 1})
        hit = reply.envelope["data"]["results"][0]
        return str(hit["open"]["event_id"]), str(hit["open"]["turn_id"])

    event_id, turn_id = anyio.run(an_event)
    with pytest.raises(ExportError, match=f"export takes a session or turn ID.*{turn_id}"):
        _export(service, event_id, "md")


def test_the_web_route_sends_the_transcript_as_an_attachment_and_errors_with_their_status(
    service: ToolService,
) -> None:
    async def get(*paths: str) -> list[httpx2.Response]:
        transport = httpx2.ASGITransport(app=Starlette(routes=[export_route(service)]))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
            return [await client.get(path) for path in paths]

    markdown, html, bad_format, missing = anyio.run(
        get,
        f"/v1/export/{SESSION_ID}",
        f"/v1/export/{SESSION_ID}?format=html",
        f"/v1/export/{SESSION_ID}?format=pdf",
        f"/v1/export/{session_id(12345)}",
    )
    assert markdown.status_code == 200 and markdown.text == _export(service, SESSION_ID, "md")
    assert markdown.headers["content-type"] == "text/markdown; charset=utf-8"
    assert (
        markdown.headers["content-disposition"]
        == 'attachment; filename="moraine-session-ses_8P46V0DKXM0VW.md"'
    )
    assert html.status_code == 200 and html.headers["content-type"] == "text/html; charset=utf-8"
    assert bad_format.status_code == 400 and "format must be one of html, md" in bad_format.json()["detail"]
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
