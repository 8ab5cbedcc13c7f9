"""``moraine usage`` against a real store (no daemon: the command opens the store its config names), and the daemon's
``GET /v1/daemon/usage`` route over the same store: the same document, and clear refusals of bad requests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from click.testing import CliRunner, Result
from starlette.applications import Starlette

from moraine.cli import main
from moraine.daemon.usage import usage_route
from moraine.store.client import Store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CODEX = FIXTURES / "usage" / "codex"
GEMINI = FIXTURES / "usage" / "gemini"
FEBRUARY = ("--since", "2026-02", "--until", "2026-02")


@pytest.fixture
def config(store: Store, ingest_into_store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    assert ingest_into_store([CODEX], source="codex").events > 20
    assert (
        ingest_into_store([GEMINI], source="gemini-cli", harness="gemini-cli", format="gemini_json").events
        > 0
    )
    monkeypatch.setenv("MORAINE_HOME", str(tmp_path / "home"))
    path = tmp_path / "config.toml"
    path.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')
    return path


def moraine(config: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--config", str(config), "usage", *args], catch_exceptions=False)


def test_the_table_shows_tokens_by_type_and_cost_per_day_and_model(config: Path) -> None:
    result = moraine(config, *FEBRUARY, "--by", "day", "--by", "model")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "gpt-5.3-codex" in line)
    # input 31013 + 59525, output 431 + 1123, no cache write, cache read 3456 + 238848 (test_usage_fixtures.py)
    assert (
        "2026-02-23" in line
        and "90,538" in line
        and "1,554" in line
        and "242,304" in line
        and "$0.22" in line
    )
    assert "genai-prices" in result.output


def test_json_is_the_routes_document_with_the_price_source(config: Path, store: Store) -> None:
    result = moraine(config, "--since", "2024-01-01", "--until", "2026-03-01", "--by", "harness", "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed["prices"]["name"] == "genai-prices" and printed["prices"]["version"]
    by_harness = {row["key"]["harness"]: row for row in printed["rows"]}
    assert by_harness["gemini-cli"]["cost_usd"] is None  # no model recorded: unpriced, never $0
    assert by_harness["gemini-cli"]["unpriced_tokens"] == 3350 + 650 + 150
    assert by_harness["codex"]["cost_usd"] > 0

    async def ask() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=Starlette(routes=[usage_route(store)]))
        async with httpx2.AsyncClient(transport=transport, base_url="http://moraine.daemon") as client:
            query = {"start": printed["window"]["start"], "end": printed["window"]["end"], "by": "harness"}
            return await client.get("/v1/daemon/usage", params=query)

    answered = anyio.run(ask)
    assert answered.status_code == 200
    assert answered.json() == printed


def test_an_empty_window_says_so(config: Path) -> None:
    result = moraine(config, "--since", "2020-01", "--until", "2020-01")
    assert result.exit_code == 0 and "No token usage recorded in this window" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--since", "yesterday"), "is not a duration"),
        (("--since", "2026-03", "--until", "2026-02"), "must be after start"),
        (("--by", "year"), "'year' is not one of"),
        (("--harness", "nope"), "no harness is called 'nope'"),
        (("--session", "turn:trn_0000000000001_1"), "session"),
    ],
)
def test_bad_options_are_refused_with_a_reason(config: Path, args: tuple[str, ...], message: str) -> None:
    result = CliRunner().invoke(main, ["--config", str(config), "usage", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_the_route_refuses_a_bad_request_with_its_reason(store: Store) -> None:
    async def ask(query: list[tuple[str, str]]) -> httpx2.Response:
        transport = httpx2.ASGITransport(app=Starlette(routes=[usage_route(store)]))
        async with httpx2.AsyncClient(transport=transport, base_url="http://moraine.daemon") as client:
            return await client.get("/v1/daemon/usage", params=query)

    for query, reason in [
        ([("by", "day'); DROP TABLE events; --")], "cannot group by"),
        ([("start", "soon")], "RFC 3339"),
        ([("harness", "codex"), ("harness", "claude-code")], "give it once"),
        ([("limit", "5")], "unknown field"),
    ]:
        answered = anyio.run(ask, query)
        assert answered.status_code == 400 and reason in answered.json()["detail"], (query, answered.text)
