"""The web page in headless Chromium, against the HTTP app ``moraine serve`` serves, on an ingested trace corpus.

The app is behind the daemon's gate: each tab gets in the way a user's does, through a one-time ``/auth`` link
(what ``moraine web`` opens), which hands the tab a page token that its script sends as a header; no cookie is ever
set, so another local server the browser visits (``tests.neighbour``) receives nothing; a tab without the token is
refused its data.

The daemon's agents list (``GET /v1/daemon/agents``) is served as the daemon serves it, over the test home's sources:
Codex and Claude Code with sessions, Gemini CLI's folder present but empty, Cursor's absent.

The corpus is the read tools' end-to-end trace set (``fixtures.corpus.traces``: Codex and Claude Code sessions, one
of 300 turns, one turn of 2,000+ events) plus one session whose text looks like markup, ingested through the real
pipeline. The app (MCP + facade + page) runs under uvicorn on a free loopback port in a thread; Chromium is Debian's
``/usr/bin/chromium`` driven by Playwright. Every facade response the page receives is recorded, and each test
checks that none of them was more than one compact page. Screenshots go to ``artifacts/web/``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import ARTIFACTS, chromium, served_app  # first: skips the module without Chromium

import httpx2  # noqa: E402  (after the skip: nothing to import when the browser is absent)
from playwright.sync_api import BrowserContext, Page, Route, expect  # noqa: E402

from fixtures.corpus.builder import scratch_store  # noqa: E402
from fixtures.corpus.traces import write_traces  # noqa: E402
from handlers import Deps, Settings, load_handlers  # noqa: E402
from moraine.access import Access  # noqa: E402
from moraine.access.login import RENEW_AFTER_SECONDS  # noqa: E402
from moraine.config import SourceConfig  # noqa: E402
from moraine.daemon.agents import AgentsCache, agents_route  # noqa: E402
from moraine.harnesses.registry import harnesses  # noqa: E402
from moraine.ingest.pipeline import ingest_paths  # noqa: E402
from moraine.server.http_app import build_http_app  # noqa: E402
from moraine.server.mcp_app import build_mcp_server  # noqa: E402
from moraine.server.service import ToolService  # noqa: E402
from tests.neighbour import Neighbour  # noqa: E402

PAGE_LIMIT = 25  # the largest page the page asks for (moraine/web/static/api.js PAGE)
COMPACT_BYTES = 64 * 1024
DAY = "from=2026-04-29T00:00:00Z&to=2026-04-30T00:00:00Z"
MARKUP = 'zebrafish <b>bold</b> <img src=x onerror="window.__pwned = 1"> & done'
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)  # a shared CI machine can be slow; every wait stays bounded


def _write_markup_session(home: Path) -> None:
    """Write one Codex session whose user message is text that looks like HTML."""
    uuid = "0196a000-0000-7000-8000-0000000000ff"
    path = home / ".codex" / "sessions" / "2026" / "04" / "29" / f"rollout-2026-04-29T21-00-00-{uuid}.jsonl"
    stamp = "2026-04-29T21:00:0{}.000Z"
    records = [
        {
            "timestamp": stamp.format(0),
            "type": "session_meta",
            "payload": {"id": uuid, "cwd": "/home/dev/app"},
        },
        {
            "timestamp": stamp.format(1),
            "type": "event_msg",
            "payload": {"type": "task_started", "turn_id": "t1"},
        },
        {
            "timestamp": stamp.format(1),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": MARKUP}],
            },
        },
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")


@dataclass
class Served:
    """The running app: its base URL, its credentials, and the facade responses each page received."""

    base: str
    project: str  # the sessions' working directory (the fixture writes it under the test's home)
    access: Access
    agents: AgentsCache  # what the agents panel reads; its ``counts`` says how often it counted the store
    sessions: dict[str, int]  # sessions ingested per harness
    received: list[dict[str, Any]] = field(default_factory=list)

    def login_url(self) -> str:
        """Return a fresh one-time login link (what ``moraine web`` opens)."""
        return f"{self.base}/auth?token={self.access.tickets.issue()}"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.access.secret.current()}"}


def _sources(home: Path) -> list[SourceConfig]:
    """Return the sources the served daemon would watch in ``home``: three folders exist, Cursor's does not."""
    return [
        SourceConfig("codex", "codex", f"{home}/.codex/sessions/**/*.jsonl", f"{home}/.codex/sessions"),
        SourceConfig(
            "claude", "claude-code", f"{home}/.claude/projects/**/*.jsonl", f"{home}/.claude/projects"
        ),
        SourceConfig("gemini-cli", "gemini-cli", f"{home}/.gemini/tmp/*/chats/*.json", f"{home}/.gemini/tmp"),
        SourceConfig("cursor", "cursor", f"{home}/.cursor/projects/**/*.jsonl", f"{home}/.cursor/projects"),
    ]


@pytest.fixture(scope="module")
def served(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Ingest the corpus, then serve the HTTP app on a free loopback port until the module is done."""
    home = tmp_path_factory.mktemp("web-home")
    write_traces(home)
    _write_markup_session(home)
    with scratch_store(store_dsn) as store:
        codex = ingest_paths(store, [home / ".codex" / "sessions"], source="codex", harness="codex")
        claude = ingest_paths(store, [home / ".claude" / "projects"], source="claude", harness="claude-code")
        assert codex.errors == 0 and claude.errors == 0, (codex, claude)
        assert codex.events + claude.events > 3000, "the web corpus must not be empty"
        service = ToolService(
            Deps(store, Settings(cursor_secret=b"web!" * 8), launch_dir=home / "dev" / "app"), load_handlers()
        )
        access = Access.at(home / "run" / "http-secret")
        (home / ".gemini" / "tmp").mkdir(parents=True)  # an agent whose folder exists but holds nothing yet
        agents = AgentsCache(store, _sources(home), max_age=3600.0)  # one count for the whole module
        app = build_http_app(service, build_mcp_server(service), access, routes=[agents_route(agents)])
        with served_app(app) as base:
            sessions = {"codex": codex.sessions, "claude-code": claude.sessions}
            served = Served(base, str(home / "dev" / "app"), access, agents, sessions)
            ready = httpx2.get(base + "/", headers=served.headers, timeout=30.0)  # bounded wait for an answer
            assert ready.status_code == 200 and "Moraine" in ready.text
            yield served


@pytest.fixture(scope="module")
def browser(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest, served: Served
) -> Iterator[BrowserContext]:
    """Start headless Chromium on a fresh profile directory (each tab logs in: ``page``)."""
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as context:
        yield context
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if capture is not None:
        with capture.global_and_fixture_disabled():
            print(f"\nweb page screenshots: {ARTIFACTS}")


@pytest.fixture
def page(browser: BrowserContext, served: Served) -> Iterator[Page]:
    """Open a tab logged in through a one-time link, recording every facade response it receives; fail on any
    script error."""
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.set_default_timeout(WAIT_MS)
    _log_in(tab, served)
    served.received.clear()

    def record(route: Route) -> None:
        response = route.fetch()
        body = response.body()
        request = route.request
        served.received.append(
            {
                "tool": request.url.rsplit("/", 1)[-1],
                "arguments": json.loads(request.post_data or "{}"),
                "bytes": len(body),
                "envelope": json.loads(body),
            }
        )
        route.fulfill(response=response)

    tab.route("**/v1/tools/*", record)
    try:
        yield tab
    finally:
        tab.close()
    assert not errors, f"script errors on the page: {errors}"
    _assert_compact(served.received)


def _log_in(tab: Page, served: Served) -> None:
    """Log ``tab`` in the way ``moraine web``'s page does: open a one-time link, land on the page."""
    tab.goto(served.login_url())
    tab.wait_for_url(served.base + "/")  # the landing's script kept the token and moved on
    assert tab.evaluate("sessionStorage.getItem('moraine.page-token')"), "the tab holds no page token"


def _assert_compact(received: list[dict[str, Any]]) -> None:
    """Assert every response the page received was one compact page (no session or turn dump)."""
    assert received, "the page fetched nothing"
    for item in received:
        arguments, envelope = item["arguments"], item["envelope"]
        assert item["bytes"] <= COMPACT_BYTES, (item["tool"], arguments, item["bytes"])
        for key in ("limit", "n_hits"):
            assert arguments.get(key, 0) <= PAGE_LIMIT, (item["tool"], arguments)
        data = envelope.get("data") or {}
        for key in ("results", "sessions", "turns", "events"):
            assert len(data.get(key) or []) <= PAGE_LIMIT, (item["tool"], arguments, key)
        if item["tool"] == "open" and "limit" not in arguments and "cursor" not in arguments:
            assert not data.get("turns") and not data.get("events"), "an id-only open must be summary-only"


def _shot(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar then sits at the top of the full-page image
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _settled(page: Page) -> None:
    expect(page.locator("#view")).to_have_attribute("aria-busy", "false")


def _opens(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [item for item in received if item["tool"] == "open"]


def test_a_typed_query_shows_the_expected_hit_first_and_walks_to_its_event_turn_and_session(
    page: Page, served: Served
) -> None:
    page.goto(served.base + "/")
    page.locator("#q").fill("parseConfigFile loader")
    page.keyboard.press("Enter")
    _settled(page)
    hits = page.locator(".hit")
    expect(hits.first.locator(".snippet")).to_contain_text(
        "parseConfigFile lives in src/config/parser.py; the loader imports parse_config_file instead."
    )
    expect(hits.first.locator(".rank")).to_have_text("1")
    expect(hits.first).to_have_class("row hit selected")
    expect(hits.first.locator("mark").first).to_have_text("parseConfigFile")
    _shot(page, "01-search")

    page.keyboard.press("j")
    expect(hits.nth(1)).to_have_class("row hit selected")
    page.keyboard.press("k")
    page.keyboard.press("Enter")  # opens the selected (first) hit's event
    _settled(page)
    assert page.url.split("#", 1)[1].startswith("/event/event:")
    expect(page.locator(".event-content")).to_contain_text("the loader imports parse_config_file instead.")
    expect(page.locator(".crumbs")).to_contain_text("Turn 1")
    _shot(page, "02-event")

    page.keyboard.press("u")  # up to the turn
    _settled(page)
    assert page.url.split("#", 1)[1].startswith("/turn/turn:")
    expect(page.locator(".object-head h1")).to_contain_text("Turn 1")
    expect(page.locator(".event-list > .event-row")).to_have_count(9)
    expect(page.locator(".pager-caption")).to_have_text("Events 1–9 of 9")  # one page: no top pager
    page.locator(".event-row").nth(4).locator("[data-toggle]").click()  # the tool call's content, on demand
    expect(page.locator(".event-row").nth(4).locator(".content-text.arguments")).to_contain_text(
        "grep -rn includeDirective src/config"
    )
    _shot(page, "03-turn")

    page.keyboard.press("u")  # up to the session
    _settled(page)
    assert page.url.split("#", 1)[1].startswith("/session/session:")
    expect(page.locator(".object-head h1")).to_have_text(
        "Where is parseConfigFile defined? The loader cannot find it."
    )
    expect(page.locator(".turn-row")).to_have_count(3)
    page.locator(".turn-row").first.locator("[data-toggle]").first.click()  # expand the turn into its events
    expect(page.locator(".turn-row").first.locator(".event-row")).to_have_count(9)
    _shot(page, "04-session")

    tools = [item["tool"] for item in served.received]
    assert tools[0] == "search_sessions" and tools.count("search_sessions") == 1
    first = served.received[0]["envelope"]["data"]["results"][0]
    assert first["rank"] == 1 and "parseConfigFile lives" in first["snippet"]["text"]
    assert {item["arguments"].get("limit") for item in _opens(served.received)} <= {None, 20, 25}


def test_paging_through_a_300_turn_session_and_a_2000_event_turn_fetches_one_page_at_a_time(
    page: Page, served: Served
) -> None:
    page.goto(f"{served.base}/#/sessions?{DAY}")
    _settled(page)
    expect(page.locator(".session-row")).to_have_count(7)
    _shot(page, "05-sessions")
    page.get_by_role("link", name="Step 1 of the long migration: move table batch 1.").click()
    _settled(page)
    caption = page.locator(".pager-caption").last
    expect(caption).to_have_text("Turns 1–20 of 300")
    page.keyboard.press("n")
    _settled(page)
    expect(caption).to_have_text("Turns 21–40 of 300")
    expect(page.locator(".turn-row").first).to_contain_text("Step 21 of the long migration")
    page.keyboard.press("n")
    _settled(page)
    expect(caption).to_have_text("Turns 41–60 of 300")
    _shot(page, "06-session-page-3")
    page.keyboard.press("p")
    _settled(page)
    expect(caption).to_have_text("Turns 21–40 of 300")
    assert "cursor=" in page.url  # the page is a shareable URL

    page.goto(f"{served.base}/#/sessions?{DAY}")
    _settled(page)
    page.get_by_role("link", name="Check every shard of the cluster one by one.").click()
    _settled(page)
    turn = page.locator(".turn-row").first
    turn.locator("[data-toggle]").first.click()
    events = turn.locator(".event-row")
    expect(events).to_have_count(25)
    turn.get_by_role("button", name="Load 25 more events").click()
    expect(events).to_have_count(50)
    _shot(page, "07-wide-turn")

    pages = [
        item for item in _opens(served.received) if (item["envelope"].get("data") or {}).get("kind") == "turn"
    ]
    assert [len(item["envelope"]["data"]["events"]) for item in pages] == [25, 25]
    assert pages[0]["envelope"]["data"]["turn"]["event_count"] > 2000
    sessions = [item for item in _opens(served.received) if item["envelope"]["data"]["kind"] == "session"]
    assert [len(item["envelope"]["data"]["turns"]) for item in sessions] == [20, 20, 20, 20, 1]


def test_file_attention_opens_from_a_tool_call_and_leads_to_the_session_that_edited_the_file(
    page: Page, served: Served
) -> None:
    page.goto(served.base + "/#/search?q=Edit+retry.ts&types=tool_call")
    _settled(page)
    expect(page.locator(".hit").first.locator(".snippet")).to_contain_text(
        f'Edit(file_path="{served.project}/src/net/retry.ts"'
    )
    page.locator(".hit").first.locator(".snippet").click()
    _settled(page)
    page.get_by_role("link", name=f"{served.project}/src/net/retry.ts").click()
    _settled(page)
    assert page.url.split("#", 1)[1].startswith("/files?path=")
    # The server runs from the sessions' project (a plain directory): the path is shown as its tail there.
    expect(page.locator(".path-title")).to_have_text("src/net/retry.ts")
    row = page.locator(".touch-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("claude-code")
    expect(row).to_contain_text("Edit")
    _shot(page, "08-file-attention")
    row.get_by_role("link", name="Session", exact=True).click()
    _settled(page)
    expect(page.locator(".object-head h1")).to_have_text("Retry loop investigation")
    attention = [item for item in served.received if item["tool"] == "file_attention"]
    assert len(attention) == 1 and attention[0]["envelope"]["data"]["summary"]["total_touches"] == 2


def test_a_query_with_no_hits_says_so_and_names_what_was_searched(page: Page, served: Served) -> None:
    page.goto(served.base + "/")
    page.locator("#q").fill("xylophonequasar")
    page.keyboard.press("Enter")
    _settled(page)
    expect(page.locator(".empty")).to_contain_text("No hits for “xylophonequasar”.")
    expect(page.locator(".empty")).to_contain_text("Searched user input and assistant responses")
    expect(page.locator(".hit")).to_have_count(0)
    _shot(page, "09-no-hits")
    assert served.received[-1]["envelope"]["data"]["result_count"] == 0


def test_one_line_per_session_shows_each_sessions_best_hit_and_its_count_then_exports_the_session(
    page: Page, served: Served
) -> None:
    page.goto(served.base + "/#/search?q=quokka+config+parser")
    _settled(page)
    page.get_by_role("link", name="One line per session").click()
    _settled(page)
    assert "group=session" in page.url
    results = served.received[-1]["envelope"]["data"]["results"]
    expected: dict[str, list[int]] = {}  # session -> the ranks of its hits, best first
    for hit in results:
        expected.setdefault(hit["open"]["session_id"], []).append(hit["rank"])
    assert 1 < len(expected) < len(results), (
        "the query must hit several sessions, some more than once",
        expected,
    )
    rows = page.locator(".session-hit")
    expect(rows).to_have_count(len(expected))
    for index, (session_id, ranks) in enumerate(expected.items()):
        row = rows.nth(index)
        expect(row).to_have_attribute("data-id", session_id)
        expect(row.locator(".rank")).to_have_text(str(ranks[0]))
        noun = "event" if len(ranks) == 1 else "events"
        expect(row.locator(".hit-count")).to_have_text(f"{len(ranks)} matching {noun}")
    expect(page.locator(".result-summary")).to_contain_text(f"{len(results)} hits in {len(expected)} session")
    _shot(page, "11-search-by-session")

    page.keyboard.press("Enter")  # the first row opens its session
    _settled(page)
    assert page.url.split("#", 1)[1].startswith("/session/session:")
    markdown_link = page.get_by_role("link", name="Export Markdown")
    expect(markdown_link).to_be_visible()
    expect(page.get_by_role("link", name="Export HTML")).to_be_visible()
    _shot(page, "12-session-with-export")
    href = markdown_link.get_attribute("href")
    assert href is not None and href.startswith("/v1/export/session")

    page.goto(served.base + "/#/search?q=parseConfigFile+loader")  # a short session to download
    _settled(page)
    session_id = served.received[-1]["envelope"]["data"]["results"][0]["open"]["session_id"]
    page.goto(f"{served.base}/#/session/{session_id}")
    _settled(page)
    href = page.get_by_role("link", name="Export HTML").get_attribute("href")
    assert href == f"/v1/export/{session_id.replace(':', '%3A')}?format=html"
    with page.expect_download() as saving:  # fetched with the tab's token, saved from memory
        page.get_by_role("link", name="Export HTML").click()
    download = saving.value
    assert download.suggested_filename.startswith(
        "moraine-session-"
    ) and download.suggested_filename.endswith(".html")
    transcript = download.path().read_text(encoding="utf-8")
    assert transcript.startswith("<!doctype html>")
    assert "<h1>Where is parseConfigFile defined? The loader cannot find it.</h1>" in transcript
    assert transcript.count('<article class="turn">') == 3  # every turn, walked with open's paging
    assert "the loader imports parse_config_file instead." in transcript
    assert page.request.get(served.base + href).status == 401  # the link alone, as a navigation sends it
    bad = httpx2.get(
        served.base + "/v1/export/session:not-an-id?format=md", headers=served.headers, timeout=30.0
    )
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_id"


def test_a_malformed_id_shows_the_invalid_id_error_code_and_message(page: Page, served: Served) -> None:
    page.goto(served.base + "/")
    page.locator("#goto-id").fill("session:not-an-id")
    page.keyboard.press("Enter")
    _settled(page)
    box = page.locator(".error-box")
    expect(box.locator(".error-code")).to_have_text("invalid_id")
    expect(box.locator(".error-message")).to_have_text(served.received[-1]["envelope"]["error"]["message"])
    expect(page.locator(".view-title")).to_contain_text("session:not-an-id")
    _shot(page, "10-malformed-id")
    assert served.received[-1]["envelope"]["error"]["code"] == "invalid_id"


def test_a_harness_session_id_in_the_id_box_opens_its_session_with_the_resume_command(
    page: Page, served: Served
) -> None:
    uuid = "0196a000-0000-7000-8000-0000000000ff"  # the markup session's Codex ID
    page.goto(served.base + "/")
    page.locator("#goto-id").fill(uuid)
    page.keyboard.press("Enter")
    # The view is idle before the ID box's navigation starts too: wait for where it ends (the session's view).
    expect(page).to_have_url(re.compile(r"#/session/session:ses_"))
    _settled(page)
    session = served.received[-1]["envelope"]["data"]["session"]
    assert session["native_id"] == uuid and session["id"].startswith("session:ses_")
    assert page.url.endswith("#/session/" + session["id"])  # shown under the Moraine ID
    expect(page.locator(".meta-item", has_text="Harness ID")).to_contain_text(uuid)
    expect(page.locator(".meta-item", has_text="Resume")).to_contain_text(
        f"cd /home/dev/app && codex resume {uuid}"
    )
    _shot(page, "11-harness-session-id")


def test_a_stale_cursor_in_a_shared_url_shows_the_error_and_a_way_back(page: Page, served: Served) -> None:
    page.goto(f"{served.base}/#/sessions?{DAY}")
    _settled(page)
    page.get_by_role("link", name="Step 1 of the long migration: move table batch 1.").click()
    _settled(page)
    session_url = page.url
    page.goto(session_url + "?cursor=m1.bm90LWEtY3Vyc29y.AAAA")
    _settled(page)
    expect(page.locator(".error-code")).to_have_text("invalid_request")
    page.get_by_role("link", name="reopen from the first page").click()
    _settled(page)
    expect(page.locator(".pager-caption").last).to_have_text("Turns 1–20 of 300")


def test_text_that_looks_like_markup_is_shown_as_text(page: Page, served: Served) -> None:
    page.goto(served.base + "/#/search?q=zebrafish")
    _settled(page)
    snippet = page.locator(".hit").first.locator(".snippet")
    expect(snippet).to_contain_text('<b>bold</b> <img src=x onerror="window.__pwned = 1"> & done')
    assert snippet.locator("b, img").count() == 0
    assert page.evaluate("window.__pwned") is None


def test_the_page_and_its_files_are_served_with_a_strict_content_security_policy(served: Served) -> None:
    index = httpx2.get(served.base + "/", headers=served.headers, timeout=30.0)
    script = httpx2.get(served.base + "/web/main.js", headers=served.headers, timeout=30.0)
    missing = httpx2.get(served.base + "/web/nope.js", headers=served.headers, timeout=30.0)
    assert "script-src 'self'" in index.headers["content-security-policy"]
    assert index.headers["x-content-type-options"] == "nosniff"
    assert script.headers["content-type"].startswith("text/javascript")
    assert missing.status_code == 404


def test_a_tab_that_never_logged_in_is_refused_its_data_and_a_login_link_works_once(
    browser: BrowserContext, served: Served
) -> None:
    link = served.login_url()
    stranger = browser.new_page()  # no other tab is open: none can hand it a token
    try:
        shell = stranger.goto(served.base + "/#/search?q=parseConfigFile")
        assert shell is not None and shell.status == 200  # the shell holds no data
        expect(stranger.locator(".error-box .error-message")).to_contain_text(
            "not logged in: run `moraine web`"
        )
        assert stranger.locator(".hit").count() == 0
        welcomed = stranger.goto(link)
        assert welcomed is not None and welcomed.status == 200
        stranger.wait_for_url(served.base + "/")  # the landing's script keeps the token and moves on to /
        stranger.locator("#q").fill("parseConfigFile")
        stranger.keyboard.press("Enter")
        expect(stranger.locator(".hit").first).to_be_visible()  # the facade answers the logged-in tab
        stranger.reload()  # the token outlives a reload (the tab's sessionStorage)
        expect(stranger.locator(".hit").first).to_be_visible()
        assert browser.cookies() == []  # nothing ambient: no cookie at all
        spent = stranger.goto(link)
        assert spent is not None and spent.status == 401  # the link works once
    finally:
        stranger.close()


def test_a_tab_in_use_keeps_the_renewed_token_the_daemon_hands_it(
    browser: BrowserContext, served: Served
) -> None:
    tokens = served.access.tokens
    issued_at = time.time() - RENEW_AFTER_SECONDS - 60  # a login made six minutes ago: due for renewal
    tab = browser.new_page()
    try:
        tokens.clock = lambda: issued_at
        try:
            _log_in(tab, served)
        finally:
            tokens.clock = time.time
        old = tab.evaluate("sessionStorage.getItem('moraine.page-token')")
        tab.goto(served.base + "/#/search?q=parseConfigFile")
        expect(tab.locator(".hit").first).to_be_visible()
        renewed = tab.evaluate("sessionStorage.getItem('moraine.page-token')")
        assert renewed != old and renewed.split(".")[0] != old.split(".")[0]
        age = tokens.age(renewed, int(served.base.rsplit(":", 1)[1]))
        assert age is not None and age < RENEW_AFTER_SECONDS  # a fresh token, kept by the page
    finally:
        tab.close()


def test_a_new_tab_borrows_the_token_of_a_logged_in_tab_of_the_page(
    browser: BrowserContext, page: Page, served: Served
) -> None:
    second = browser.new_page()
    try:
        second.goto(served.base + "/#/search?q=parseConfigFile")
        expect(second.locator(".hit").first).to_be_visible()
        assert second.evaluate("sessionStorage.getItem('moraine.page-token')")
    finally:
        second.close()
    page.goto(served.base + "/#/search?q=parseConfigFile")  # the page fixture records its own calls
    _settled(page)


def test_a_neighbours_server_the_logged_in_browser_visits_receives_no_credential(
    browser: BrowserContext, page: Page, served: Served
) -> None:
    page.goto(served.base + "/#/search?q=parseConfigFile")
    expect(page.locator(".hit").first).to_be_visible()  # logged in and in use
    with Neighbour() as neighbour:
        page.goto(neighbour.base + "/")  # another account's server on 127.0.0.1, visited by the same tab
        expect(page.locator("p")).to_have_text("a neighbour's page")
        visits = neighbour.stop()
        sent = neighbour.headers_received()
    assert [visit["path"] for visit in visits][:1] == ["/"]
    for headers in sent:
        assert "cookie" not in headers and "authorization" not in headers, headers
    assert browser.cookies() == []
    page.goto(served.base + "/#/search?q=parseConfigFile")  # back on the page: the tab is still logged in
    expect(page.locator(".hit").first).to_be_visible()


def test_the_sessions_view_lists_the_agents_found_here_with_their_counts_and_filters_by_one(
    page: Page, served: Served
) -> None:
    page.goto(f"{served.base}/#/sessions")
    _settled(page)
    agents = page.locator(".agents-panel .agent")
    expect(agents).to_have_count(3)  # Cursor's folder does not exist here
    expected = [
        ("claude-code", "Claude Code", served.sessions["claude-code"]),
        ("codex", "Codex", served.sessions["codex"]),
        ("gemini-cli", "Gemini CLI", 0),
    ]
    assert served.sessions["codex"] > 1 and served.sessions["claude-code"] > 0
    for index, (harness, name, sessions) in enumerate(expected):
        expect(agents.nth(index)).to_have_attribute("data-harness", harness)
        expect(agents.nth(index).locator(".agent-name")).to_have_text(name)
        expect(agents.nth(index).locator(".agent-count")).to_have_text(str(sessions))
    expect(agents.nth(2)).to_have_class(re.compile(r"\bnone\b"))  # the folder exists but yields nothing
    options = page.locator(".session-filters select[name=harness] option")
    expect(options).to_have_count(len(harnesses()) + 1)  # every registered harness, after "Any harness"
    _shot(page, "13-agents-on-this-machine")

    agents.nth(1).click()  # Codex: the list keeps only its sessions
    _settled(page)
    assert "harness=codex" in page.url
    expect(page.locator(".agents-panel .agent.active")).to_have_attribute("data-harness", "codex")
    expect(page.locator(".session-filters select[name=harness]")).to_have_value("codex")
    rows = page.locator(".session-row")
    expect(rows.first).to_be_visible()
    assert rows.count() == min(served.sessions["codex"], PAGE_LIMIT)
    assert set(rows.locator(".badge.harness").all_inner_texts()) == {"codex"}
    assert served.received[-1]["arguments"]["harness"] == "codex"
    assert served.agents.counts == 1, "two page views must read one cached count"
