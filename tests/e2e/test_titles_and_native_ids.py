"""Through a real MCP client against ``moraine mcp`` (issue 20 items 4 and 5): a Claude Code session without a
summary is titled by its first prompt in list_sessions, open and search hits; a Claude Code and a Codex session are
found by their harnesses' own IDs (open and search_sessions), and open(session) names the resume command."""

from __future__ import annotations

from typing import Any

import pytest
from clients_home import CLAUDE_CWD, CLAUDE_ID, CODEX_ID, WINDOW, Call, run_client
from daemon_support import DaemonHome

TITLE = "Make the invoice export stream its rows to the browser instead of loading the…"
UNKNOWN_UUID = "0196b000-0000-7000-8000-00000000ffff"

Replies = dict[str, dict[str, Any]]


async def _script(call: Call) -> Replies:
    async def envelope(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await call(tool, arguments)
        assert result.structured_content is not None
        return {"is_error": result.is_error, **result.structured_content}

    out: Replies = {
        "search": await envelope("search_sessions", {"query": "invoice export"}),
        "list": await envelope("list_sessions", WINDOW),
    }
    hit = out["search"]["data"]["results"][0]
    out["open session"] = await envelope("open", {"id": hit["open"]["session_id"]})
    out["open turn"] = await envelope("open", {"id": hit["open"]["turn_id"]})
    out["open event"] = await envelope("open", {"id": hit["open"]["event_id"]})
    for name, native in (("claude", CLAUDE_ID), ("codex", CODEX_ID)):
        out[f"open {name} by native id"] = await envelope("open", {"id": native, "limit": 1})
        out[f"search {name} native id"] = await envelope("search_sessions", {"query": f" {native} "})
    out["open unknown native id"] = await envelope("open", {"id": UNKNOWN_UUID})
    return out


@pytest.fixture(scope="module")
def replies(clients: DaemonHome) -> Replies:
    return run_client(clients, _script)


def _ok(reply: dict[str, Any]) -> Any:
    assert reply["is_error"] is False, reply
    return reply["data"]


def test_a_claude_code_session_without_a_summary_is_titled_by_its_first_prompt(replies: Replies) -> None:
    hit = _ok(replies["search"])["results"][0]
    assert hit["session"]["harness"] == "claude-code" and hit["session"]["title"] == TITLE
    claude = hit["session"]["id"]
    listed = {s["id"]: s["session"] for s in _ok(replies["list"])["sessions"]}
    assert listed[claude]["title"] == TITLE
    assert _ok(replies["open session"])["session"]["title"] == TITLE
    assert _ok(replies["open turn"])["session"] == {
        "id": claude,
        "title": TITLE,
        "source": "claude",
        "harness": "claude-code",
    }
    assert _ok(replies["open event"])["session"]["title"] == TITLE


@pytest.mark.parametrize(
    ("name", "native", "harness", "command"),
    [
        ("claude", CLAUDE_ID, "claude-code", f"cd {CLAUDE_CWD} && claude --resume {CLAUDE_ID}"),
        ("codex", CODEX_ID, "codex", f"cd /work/app && codex resume {CODEX_ID}"),
    ],
)
def test_a_harness_session_id_opens_its_session_with_the_resume_command(
    replies: Replies, name: str, native: str, harness: str, command: str
) -> None:
    reply = replies[f"open {name} by native id"]
    data = _ok(reply)
    assert reply["request"] == {"id": native, "limit": 1}
    assert data["kind"] == "session" and data["session"]["harness"] == harness
    assert data["session"]["id"].startswith("session:ses_")
    assert (data["session"]["native_id"], data["session"]["resume_command"]) == (native, command)
    assert len(data["turns"]) == 1 and data["turns"][0]["ordinal"] == 1
    if name == "claude":
        assert data["session"]["id"] == _ok(replies["search"])["results"][0]["session"]["id"]


@pytest.mark.parametrize(("name", "native"), [("claude", CLAUDE_ID), ("codex", CODEX_ID)])
def test_a_query_that_is_a_harness_session_id_returns_that_sessions_first_events(
    replies: Replies, name: str, native: str
) -> None:
    reply = replies[f"search {name} native id"]
    data = _ok(reply)
    session = _ok(replies[f"open {name} by native id"])["session"]["id"]
    assert data["result_count"] >= 2 and data["truncated"] is False
    assert {hit["session"]["id"] for hit in data["results"]} == {session}
    first = data["results"][0]
    assert (first["rank"], first["event"]["type"], first["turn"]["ordinal"]) == (1, "user_input", 1)
    assert [hit["event"]["type"] for hit in data["results"][:2]] == ["user_input", "assistant_response"]
    assert any(session in warning for warning in reply["warnings"])


def test_an_unknown_harness_id_is_an_invalid_id(replies: Replies) -> None:
    reply = replies["open unknown native id"]
    assert reply["is_error"] is True
    assert reply["error"]["code"] == "invalid_id" and reply["error"]["details"]["field"] == "id"
    assert (
        reply["error"]["message"]
        == "id is neither a Moraine ID nor the ID of a stored session in its harness"
    )
