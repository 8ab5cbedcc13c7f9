"""Every harness end to end through a real ``moraine mcp``: one home holding every harness folder's fixtures
(``tests/harnesses/home.py``), ingested once, one MCP session; a test row per ``expect.json``.

For each harness: ``search_sessions`` filtered by its harness finds its keyword in its source; ``open`` walks the
hit's session (its turns and events); ``file_attention`` (scope "all") finds a touch of ``touched_file`` from that
harness; ``list_sessions`` filtered by the harness returns ``sessions`` sessions; the session's title and resume
command are as expected. A new harness folder with ``home/`` and ``expect.json`` is a new row with no change here.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp import Client

from tests.e2e.daemon_support import MORAINE, DaemonHome
from tests.harnesses.home import Expectation, build_home, expectations, write_config

EXPECTATIONS = expectations()
WINDOW = {"start_datetime": "1970-01-02T00:00:00Z", "end_datetime": "2100-01-01T00:00:00Z"}
Replies = dict[str, dict[str, Any]]


async def _calls(home: DaemonHome) -> dict[str, Replies]:
    """Make every harness's calls in one ``moraine mcp`` session."""
    out: dict[str, Replies] = {}
    async with Client(home.relay_params(), read_timeout_seconds=120) as client:

        async def envelope(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(tool, arguments)
            assert result.structured_content is not None, (tool, arguments, result)
            return {"is_error": result.is_error, **result.structured_content}

        for expect in EXPECTATIONS:
            replies: Replies = {
                "search": await envelope(
                    "search_sessions", {"query": expect.keyword, "harness": expect.harness}
                ),
                "list": await envelope("list_sessions", {**WINDOW, "harness": expect.harness, "limit": 50}),
            }
            if expect.touched_file is not None:
                replies["attention"] = await envelope(
                    "file_attention", {"path": expect.touched_file, "scope": "all", "harness": expect.harness}
                )
            results = replies["search"].get("data", {}).get("results") or []
            if results:
                hit = results[0]["open"]
                replies["open"] = await envelope("open", {"id": hit["session_id"], "limit": 50})
                replies["open turn"] = await envelope("open", {"id": hit["turn_id"], "limit": 50})
            out[expect.folder.name] = replies
    return out


@pytest.fixture(scope="module")
def replies() -> Iterator[dict[str, Replies]]:
    """Build the shared home, ``moraine ingest`` it, then make every call through one ``moraine mcp``."""
    home = DaemonHome()
    try:
        build_home(home.root)
        home.seed_store()  # a migrated store: migrating is not what this tests
        config = write_config(home.moraine_home)
        with config.open("a") as handle:
            handle.write("[daemon]\nidle_exit_seconds = 0\nstart_timeout_seconds = 300\n")
        done = subprocess.run(
            [str(MORAINE), "ingest"], env=home.env, cwd=home.root, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr[-2000:]
        yield anyio.run(_calls, home)
    finally:
        home.cleanup()


def _ok(reply: dict[str, Any]) -> Any:
    assert reply["is_error"] is False, json.dumps(reply)[:2000]
    return reply["data"]


def _ids(expects: list[Expectation]) -> list[str]:
    return [expect.harness for expect in expects]


@pytest.mark.parametrize("expect", EXPECTATIONS, ids=_ids(EXPECTATIONS))
def test_search_filtered_by_harness_finds_the_keyword_in_its_source(
    replies: dict[str, Replies], expect: Expectation
) -> None:
    results = _ok(replies[expect.folder.name]["search"])["results"]
    assert results, f"{expect.keyword} not found for {expect.harness}"
    hit = results[0]
    assert (hit["session"]["harness"], hit["session"]["source"]) == (expect.harness, expect.source)
    assert expect.keyword.lower() in json.dumps(hit).lower()


@pytest.mark.parametrize("expect", EXPECTATIONS, ids=_ids(EXPECTATIONS))
def test_open_walks_the_session_with_its_title_and_resume_command(
    replies: dict[str, Replies], expect: Expectation
) -> None:
    own = replies[expect.folder.name]
    opened = _ok(own["open"])
    assert opened["session"]["harness"] == expect.harness
    assert opened["session"]["title"] == expect.title
    assert opened["session"]["resume_command"] == expect.resume
    assert opened["turns"] and sum(turn["event_count"] for turn in opened["turns"]) > 0
    hit = _ok(own["search"])["results"][0]["open"]
    turn = _ok(own["open turn"])
    assert turn["turn"]["id"] in {t["id"] for t in opened["turns"]} or opened["next_cursor"]
    assert hit["event_id"] in {event["id"] for event in turn["events"]}


@pytest.mark.parametrize("expect", EXPECTATIONS, ids=_ids(EXPECTATIONS))
def test_list_sessions_filtered_by_harness_returns_its_sessions(
    replies: dict[str, Replies], expect: Expectation
) -> None:
    sessions = _ok(replies[expect.folder.name]["list"])["sessions"]
    assert len(sessions) == expect.sessions
    assert {row["session"]["harness"] for row in sessions} == {expect.harness}


@pytest.mark.parametrize(
    "expect",
    [e for e in EXPECTATIONS if e.touched_file],
    ids=_ids([e for e in EXPECTATIONS if e.touched_file]),
)
def test_file_attention_finds_the_touched_file_from_the_harness(
    replies: dict[str, Replies], expect: Expectation
) -> None:
    data = _ok(replies[expect.folder.name]["attention"])
    assert data["summary"]["total_touches"] > 0, f"no touch of {expect.touched_file} from {expect.harness}"
    assert data["sessions"] and {row["session"]["harness"] for row in data["sessions"]} == {expect.harness}
