"""This group's harnesses through a real MCP client: ``moraine ingest`` then ``moraine mcp`` over a fake home.

The fake home holds every harness's fixture files where the harness writes them, and the config only enables the
opt-in Aider source: every other source is found at its default location, without configuration. One ingest, one
``moraine mcp`` session; per harness (``expect.json``): ``search_sessions`` finds the planted keyword in that
harness, ``open`` walks the hit's session (its turns, then a turn's events), ``list_sessions`` filtered by the
harness shows its sessions and title, and ``file_attention`` finds the file its edit tool touched.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.harnesses.declared_home import GROUP, Expectation, build_home

MORAINE = Path(sys.executable).with_name("moraine")
PACKAGES = GROUP
EXPECTED = [Expectation.load(package) for package in PACKAGES]
WINDOW = {"start_datetime": "1970-01-02T00:00:00Z", "end_datetime": "2100-01-01T00:00:00Z", "limit": 50}
Results = dict[str, dict[str, Any]]


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "MORAINE_HOME": str(home / ".moraine"), "HOME": str(home)}


async def _session(params: StdioServerParameters) -> Results:
    results: Results = {}
    async with Client(params, read_timeout_seconds=120) as client:

        async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(tool, arguments)
            assert result.is_error is False, (tool, arguments, result.structured_content)
            return dict((result.structured_content or {}).get("data") or {})

        for expect in EXPECTED:
            found = await call("search_sessions", {"query": expect.keyword})
            opened: dict[str, Any] = {}
            turn: dict[str, Any] = {}
            if found.get("results"):
                opened = await call("open", {"id": found["results"][0]["session"]["id"], "limit": 50})
                if opened.get("turns"):
                    turn = await call("open", {"id": opened["turns"][0]["id"], "limit": 50})
            listed = await call("list_sessions", {**WINDOW, "harness": expect.harness})
            touched = await call(
                "file_attention", {"path": expect.touched_file, "scope": "all", "granularity": "events"}
            )
            results[expect.harness] = {
                "search": found,
                "open": opened,
                "turn": turn,
                "list": listed,
                "attention": touched,
            }
    return results


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    assert MORAINE.exists(), f"{MORAINE} missing: pip install -e . into the venv"
    home = build_home(PACKAGES, tmp_path_factory.mktemp("mcp-home"))
    (home / ".moraine").mkdir()
    (home / ".moraine" / "config.toml").write_text('[[sources]]\nname = "aider"\nenabled = true\n')
    subprocess.run([str(MORAINE), "ingest"], env=_env(home), check=True, capture_output=True, timeout=300)
    params = StdioServerParameters(command=str(MORAINE), args=["mcp"], env=_env(home), cwd=str(home))
    return anyio.run(_session, params)


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_search_finds_the_keyword_in_its_harness_at_its_default_location(
    results: Results, expect: Expectation
) -> None:
    hits = results[expect.harness]["search"]["results"]
    assert hits, f"{expect.keyword} not found"
    assert {(h["session"]["harness"], h["session"]["source"]) for h in hits} == {
        (expect.harness, expect.source)
    }


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_open_walks_the_session_to_its_events(results: Results, expect: Expectation) -> None:
    opened, turn = results[expect.harness]["open"], results[expect.harness]["turn"]
    assert (opened["session"]["harness"], opened["session"]["title"]) == (expect.harness, expect.title)
    assert opened["session"]["resume_command"] == expect.resume
    assert turn["events"] and turn["session"]["id"] == opened["session"]["id"]


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_list_sessions_filters_by_the_harness(results: Results, expect: Expectation) -> None:
    sessions = [row["session"] for row in results[expect.harness]["list"]["sessions"]]
    assert len(sessions) == expect.sessions
    assert {s["harness"] for s in sessions} == {expect.harness}
    assert expect.title in {s["title"] for s in sessions}


@pytest.mark.parametrize("expect", EXPECTED, ids=PACKAGES)
def test_file_attention_finds_the_file_the_edit_tool_touched(results: Results, expect: Expectation) -> None:
    events = results[expect.harness]["attention"]["events"]
    assert expect.harness in {row["event"]["harness"] for row in events}
