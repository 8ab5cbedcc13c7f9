"""The Usage view in headless Chromium: the chart is drawn and the table's figures equal ``moraine usage --json``.

The app is the HTTP app with the daemon's usage route (``GET /v1/daemon/usage``) over the usage test traces (real
Claude Code and Codex sessions, Gemini CLI and pi samples: ``tests/fixtures/usage``), behind the gate; the tab logs
in through a one-time link as ``tests/e2e/test_web_page.py``'s do. The CLI reads the same store (no daemon runs for
its config). Screenshots (light and dark) go to ``artifacts/web/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import ARTIFACTS, chromium, served_app  # first: skips the module without Chromium

import httpx2  # noqa: E402  (after the skip: nothing to import when the browser is absent)
from click.testing import CliRunner  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402

from fixtures.corpus.builder import scratch_store  # noqa: E402
from handlers import Deps, Settings, load_handlers  # noqa: E402
from moraine.access import Access  # noqa: E402
from moraine.cli import main  # noqa: E402
from moraine.daemon.usage import usage_route  # noqa: E402
from moraine.ingest.pipeline import ingest_paths  # noqa: E402
from moraine.server.http_app import build_http_app  # noqa: E402
from moraine.server.mcp_app import build_mcp_server  # noqa: E402
from moraine.server.service import ToolService  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CLAUDE = next(
    (FIXTURES / "relevance_coding/traces/claude").glob("*/67a8478e-78dc-44ab-82ea-f65c8ead85f6.jsonl")
)
FROM, TO = "2024-01-01T00:00:00Z", "2026-03-01T00:00:00Z"
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


@dataclass
class Served:
    base: str
    access: Access
    config: Path

    def login_url(self) -> str:
        return f"{self.base}/auth?token={self.access.tickets.issue()}"


@pytest.fixture(scope="module")
def served(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = tmp_path_factory.mktemp("usage-home")
    usage = FIXTURES / "usage"
    with scratch_store(store_dsn) as store:
        for paths, source, harness, reader in (
            ([CLAUDE], "claude", "claude-code", "jsonl"),
            ([usage / "codex"], "codex", "codex", "jsonl"),
            ([usage / "gemini"], "gemini-cli", "gemini-cli", "gemini_json"),
            ([usage / "pi"], "pi", "pi-coding-agent", "jsonl"),
        ):
            summary = ingest_paths(store, paths, source=source, harness=harness, format=reader)
            assert summary.events > 0, (source, summary)  # the pi sample holds one record pi cannot read
        service = ToolService(
            Deps(store, Settings(cursor_secret=b"web!" * 8), launch_dir=home), load_handlers()
        )
        access = Access.at(home / "run" / "http-secret")
        app = build_http_app(service, build_mcp_server(service), access, routes=[usage_route(store)])
        config = home / "config.toml"
        config.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')
        with served_app(app) as base:
            headers = {"Authorization": f"Bearer {access.secret.current()}"}
            assert httpx2.get(base + "/", headers=headers, timeout=30.0).status_code == 200
            yield Served(base, access, config)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as context:
        yield context


@pytest.fixture
def page(browser: BrowserContext, served: Served) -> Iterator[Page]:
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    tab.set_default_timeout(WAIT_MS)
    tab.goto(served.login_url())
    tab.wait_for_url(served.base + "/")
    try:
        yield tab
    finally:
        tab.close()
    assert not errors, f"script errors or refusals (Content-Security-Policy) on the page: {errors}"


def _cli(served: Served, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        main, ["--config", str(served.config), "usage", *args, "--json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.output)
    return answer


def _money(cost: float | None, unpriced: int) -> str:
    """The page's figure for a cost (usage.js ``money``)."""
    if cost is None:
        return "unpriced"
    digits = 4 if cost != 0 and abs(cost) < 1 else 2
    shown = f"${cost:,.{digits}f}"
    return f"{shown} + unpriced" if unpriced else shown


def _chart_pixels(page: Page) -> int:
    """Return how many pixels of the chart's canvas are drawn (not transparent)."""
    count: int = page.evaluate(
        """() => {
            const canvas = document.querySelector('.usage-chart canvas');
            const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
            let drawn = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) drawn += 1;
            return drawn;
        }"""
    )
    return count


@pytest.mark.parametrize("stack", ["model", "harness"])
def test_the_usage_view_draws_its_chart_and_its_table_equals_the_cli(
    page: Page, served: Served, stack: str
) -> None:
    page.goto(f"{served.base}/#/usage?from={FROM}&to={TO}&stack={stack}")
    expect(page.locator("#view")).to_have_attribute("aria-busy", "false")
    expect(page.locator(".usage-chart canvas").first).to_be_visible()
    assert _chart_pixels(page) > 2000, "the chart's canvas is empty"
    page.screenshot(path=str(ARTIFACTS / f"usage-by-{stack}.png"), full_page=True)

    cli = _cli(served, "--since", FROM, "--until", TO, "--by", "day", "--by", stack)
    assert len(cli["rows"]) >= 4
    shown = page.locator(".usage-table tbody tr")
    expect(shown).to_have_count(len(cli["rows"]))
    figures = {}
    for i in range(shown.count()):
        row = shown.nth(i)
        key = (row.get_attribute("data-day"), row.get_attribute("data-key"))
        figures[key] = [
            row.locator(f"td[data-kind={kind}]").inner_text()
            for kind in ("input", "output", "cache_write", "cache_read", "cost")
        ]
    expected = {
        (row["key"]["day"], row["key"][stack]): [
            *(f"{row['tokens'][kind]:,}" for kind in ("input", "output", "cache_write", "cache_read")),
            _money(row["cost_usd"], row["unpriced_tokens"]),
        ]
        for row in cli["rows"]
    }
    assert figures == expected
    total = cli["total"]
    expect(page.locator("[data-total-cost]")).to_have_text(
        _money(total["cost_usd"], total["unpriced_tokens"])
    )
    expect(page.locator(".usage-table tfoot td[data-kind=cache_read]")).to_have_text(
        f"{total['tokens']['cache_read']:,}"
    )


def test_the_usage_view_reads_in_the_dark_theme_and_a_session_shows_its_own_cost(
    page: Page, served: Served
) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto(f"{served.base}/#/usage?from={FROM}&to={TO}")
    expect(page.locator(".usage-chart canvas").first).to_be_visible()
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(20, 24, 22)", background  # the page's dark theme (app.css --bg)
    assert _chart_pixels(page) > 2000
    page.screenshot(path=str(ARTIFACTS / "usage-dark.png"), full_page=True)

    session = "session:" + _cli(
        served, "--since", FROM, "--until", TO, "--by", "session", "--harness", "claude-code"
    )["rows"][0]["key"]["session"].removeprefix("session:")
    one = _cli(served, "--session", session)["total"]
    page.goto(f"{served.base}/#/session/{session}")
    expect(page.locator("[data-session-cost]")).to_have_text(_money(one["cost_usd"], one["unpriced_tokens"]))
    expect(page.locator(".session-usage")).to_contain_text(f"cache read {one['tokens']['cache_read']:,}")
    page.screenshot(path=str(ARTIFACTS / "usage-session.png"), full_page=True)
