"""The traversal contract and the end-to-end discovery workflow, through a real MCP client over stdio against
``moraine mcp`` on a store filled by ``moraine ingest``: every returned ID opens, parents and neighbours agree,
boundaries are null, and cursors return every child exactly once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from fixtures.corpus.stdio import Call, Home, Reply, run_client
from fixtures.corpus.traces import BIG_TURNS, UUIDS
from moraine.ids import session_id, session_key, turn_id

DAY = {"start_datetime": "2026-04-29T00:00:00Z", "end_datetime": "2026-04-30T00:00:00Z"}
SEEDS = [
    {"query": "parseConfigFile src/config/parser.py"},
    {
        "query": "retry loop fetchWithBackoff",
        "event_types": ["user_input", "assistant_response", "tool_call"],
    },
    {"query": "shard healthy", "event_types": ["tool_response", "assistant_response"], "n_hits": 5},
    {"query": "quokka migration batch"},
]
MAX_DEPTH = 3


@dataclass
class Walk:
    hits: list[dict[str, Any]] = field(default_factory=list)
    listed: list[dict[str, Any]] = field(default_factory=list)
    opened: dict[str, Reply] = field(default_factory=dict)
    workflow: dict[str, Any] = field(default_factory=dict)
    pages: dict[str, list[str]] = field(default_factory=dict)


def _links(data: dict[str, Any]) -> list[str]:
    return [value for value in data["traversal"].values() if value]


async def _expand(call: Call, target: str, limit: int) -> list[str]:
    reply = await call("open", {"id": target, "limit": limit})
    key = "turns" if reply.data["kind"] == "session" else "events"
    seen = [item["id"] for item in reply.data[key]]
    while reply.data["next_cursor"]:
        reply = await call("open", {"cursor": reply.data["next_cursor"]})
        assert not reply.is_error, reply.envelope
        assert len(reply.data[key]) <= limit
        seen.extend(item["id"] for item in reply.data[key])
    return seen


async def _workflow(call: Call, walk: Walk) -> None:
    flow = walk.workflow
    flow["search"] = search = await call(
        "search_sessions", {"query": "why does that network retry thing keep spinning"}
    )
    hit = search.data["results"][0]
    flow["event"] = event = await call("open", {"id": hit["open"]["event_id"]})
    flow["turn"] = await call("open", {"id": event.data["traversal"]["turn_id"]})
    flow["turn_events"] = await _expand(call, event.data["traversal"]["turn_id"], 2)
    flow["session"] = session = await call("open", {"id": event.data["traversal"]["session_id"]})
    flow["session_turns"] = await _expand(call, event.data["traversal"]["session_id"], 1)
    flow["next_turn"] = await call("open", {"id": flow["turn"].data["traversal"]["next_turn_id"]})
    flow["next_event"] = await call("open", {"id": event.data["traversal"]["next_event_id"]})
    flow["last_turn"] = await call("open", {"id": session.data["traversal"]["last_turn_id"]})


async def _script(call: Call) -> Walk:
    walk = Walk()
    frontier: list[tuple[str, int]] = []
    for seed in SEEDS:
        reply = await call("search_sessions", seed)
        assert not reply.is_error, reply.envelope
        walk.hits.extend(reply.data["results"])
        for hit in reply.data["results"]:
            frontier.extend((hit["open"][k], 0) for k in ("event_id", "turn_id", "session_id"))
    listing = await call("list_sessions", DAY)
    walk.listed = listing.data["sessions"]
    frontier.extend((row["open"]["session_id"], 0) for row in walk.listed)
    while frontier:
        target, depth = frontier.pop(0)
        if target in walk.opened:
            continue
        reply = walk.opened[target] = await call("open", {"id": target})
        if not reply.is_error and depth < MAX_DEPTH:
            frontier.extend((link, depth + 1) for link in _links(reply.data))
    await _workflow(call, walk)
    big, wide = session_key("codex", UUIDS["big"]), session_key("codex", UUIDS["wide"])
    walk.pages["big session by 50"] = await _expand(call, session_id(big), 50)
    walk.pages["big session by 7"] = await _expand(call, session_id(big), 7)
    walk.pages["wide turn by 50"] = await _expand(call, turn_id(wide, 1), 50)
    walk.pages["wide turn count"] = [
        str((await call("open", {"id": turn_id(wide, 1)})).data["turn"]["event_count"])
    ]
    return walk


@pytest.fixture(scope="module")
def walk(corpus_home: Home) -> Walk:
    return run_client(corpus_home, _script)


def _data(walk: Walk, target: str) -> dict[str, Any]:
    reply = walk.opened[target]
    assert reply.is_error is False, (target, reply.envelope)
    return dict(reply.data)


def test_every_id_returned_by_search_list_and_open_opens(walk: Walk) -> None:
    assert len(walk.opened) > 60 and walk.hits and walk.listed
    failures = {target: r.envelope["error"] for target, r in walk.opened.items() if r.is_error}
    assert failures == {}


def test_search_hits_point_at_their_event_turn_and_session(walk: Walk) -> None:
    for hit in walk.hits:
        event = _data(walk, hit["open"]["event_id"])
        assert event["event"]["turn_id"] == hit["open"]["turn_id"] == hit["turn"]["id"]
        assert event["event"]["session_id"] == hit["open"]["session_id"] == hit["session"]["id"]
        assert (
            event["event"]["ordinal"] == hit["event"]["ordinal"]
            and event["event"]["type"] == hit["event"]["type"]
        )
        turn = _data(walk, hit["open"]["turn_id"])
        assert turn["turn"]["ordinal"] == hit["turn"]["ordinal"]
        assert turn["turn"]["event_count"] == hit["turn"]["event_count"]
        session = _data(walk, hit["open"]["session_id"])
        for key in ("title", "source", "harness", "started_at", "updated_at", "completed"):
            assert session["session"][key] == hit["session"][key], key


def test_listed_sessions_open_with_the_same_metadata(walk: Walk) -> None:
    for row in walk.listed:
        session = _data(walk, row["open"]["session_id"])["session"]
        for key in ("id", "title", "source", "harness", "started_at", "updated_at", "completed", "turn_count",
                    "event_count"):  # fmt: skip
            assert session[key] == row["session"][key], key


def test_event_parents_and_neighbours_agree(walk: Walk) -> None:
    checked = 0
    for target, reply in walk.opened.items():
        if reply.is_error or reply.data["kind"] != "event":
            continue
        data, nav = reply.data, reply.data["traversal"]
        assert (
            nav["turn_id"] == data["event"]["turn_id"] == data["turn"]["id"] and target == data["event"]["id"]
        )
        assert nav["session_id"] == data["event"]["session_id"] == data["session"]["id"]
        if nav["previous_event_id"] is None:
            assert data["event"]["ordinal"] == 1
        elif nav["previous_event_id"] in walk.opened:
            before = _data(walk, nav["previous_event_id"])
            assert (
                before["traversal"]["next_event_id"] == target
                and before["event"]["turn_id"] == nav["turn_id"]
            )
            assert before["event"]["ordinal"] == data["event"]["ordinal"] - 1
        if nav["turn_id"] in walk.opened:
            turn = _data(walk, nav["turn_id"])
            assert (nav["next_event_id"] is None) == (data["event"]["ordinal"] == turn["turn"]["event_count"])
            assert nav["previous_turn_id"] == turn["traversal"]["previous_turn_id"]
            assert nav["next_turn_id"] == turn["traversal"]["next_turn_id"]
        checked += 1
    assert checked > 20


def test_turn_parents_neighbours_and_boundaries_agree(walk: Walk) -> None:
    checked = 0
    for target, reply in walk.opened.items():
        if reply.is_error or reply.data["kind"] != "turn":
            continue
        data, nav = reply.data, reply.data["traversal"]
        assert nav["session_id"] == data["turn"]["session_id"] == data["session"]["id"]
        session = _data(walk, nav["session_id"])
        assert (nav["previous_turn_id"] is None) == (data["turn"]["ordinal"] == 1)
        assert (nav["next_turn_id"] is None) == (data["turn"]["ordinal"] == session["session"]["turn_count"])
        for side, step in (("previous_turn_id", -1), ("next_turn_id", 1)):
            if nav[side] in walk.opened:
                assert _data(walk, nav[side])["turn"]["ordinal"] == data["turn"]["ordinal"] + step
        for side, ordinal in (("first_event_id", 1), ("last_event_id", data["turn"]["event_count"])):
            if nav[side] in walk.opened:
                event = _data(walk, nav[side])
                assert event["event"]["turn_id"] == target and event["event"]["ordinal"] == ordinal
                edge = "previous_event_id" if side == "first_event_id" else "next_event_id"
                assert event["traversal"][edge] is None
        checked += 1
    assert checked > 10


def test_session_first_and_last_turns_are_the_boundaries(walk: Walk) -> None:
    for row in walk.listed:
        data = _data(walk, row["id"])
        first = _data(walk, data["traversal"]["first_turn_id"])
        last = _data(walk, data["traversal"]["last_turn_id"])
        assert first["turn"]["ordinal"] == 1 and first["traversal"]["previous_turn_id"] is None
        assert (
            last["turn"]["ordinal"] == data["session"]["turn_count"]
            and last["traversal"]["next_turn_id"] is None
        )


def test_session_neighbours_open_and_point_back(walk: Walk) -> None:
    linked = 0
    for row in walk.listed:
        nav = _data(walk, row["id"])["traversal"]
        for side, back in (
            ("previous_session_id", "next_session_id"),
            ("next_session_id", "previous_session_id"),
        ):
            if nav[side] is not None:
                neighbour = _data(walk, nav[side])
                assert neighbour["traversal"][back] == row["id"]
                assert neighbour["session"]["harness"] == row["session"]["harness"]
                linked += 1
    assert linked >= 8  # five Codex sessions of one project chain both ways


def test_discovery_workflow_walks_from_a_vague_query_to_the_session(walk: Walk) -> None:
    flow = walk.workflow
    hit = flow["search"].data["results"][0]
    claude = session_id(session_key("claude", UUIDS["claude"]))
    assert hit["session"]["id"] == claude and hit["session"]["title"] == "Retry loop investigation"
    event = flow["event"].data
    assert event["content"]["format"] == "text" and event["content"]["truncated"] is False
    turn = flow["turn"].data
    assert turn["events"] == [] and turn["summary"]["user_input"]["event_id"] in flow["turn_events"]
    assert len(flow["turn_events"]) == turn["turn"]["event_count"] == len(set(flow["turn_events"]))
    assert flow["turn_events"][0] == turn["traversal"]["first_event_id"]
    assert flow["turn_events"][-1] == turn["traversal"]["last_event_id"]
    session = flow["session"].data
    assert session["turns"] == [] and flow["session_turns"] == [turn_id(session_key("claude", UUIDS["claude"]), n)
                                                                 for n in (1, 2)]  # fmt: skip
    assert flow["next_turn"].data["traversal"]["previous_turn_id"] == turn["turn"]["id"]
    assert flow["next_event"].data["traversal"]["previous_event_id"] == event["event"]["id"]
    # Its last turn was cut short on a tool call months ago: over, with no answer invented (issue 44).
    assert flow["last_turn"].data["turn"]["completed"] is True
    assert flow["last_turn"].data["summary"]["final_response"] is None


def test_cursor_expansion_over_stdio_returns_every_child_once(walk: Walk) -> None:
    big = session_key("codex", UUIDS["big"])
    expected = [turn_id(big, n) for n in range(1, BIG_TURNS + 1)]
    assert walk.pages["big session by 50"] == expected and walk.pages["big session by 7"] == expected
    events = walk.pages["wide turn by 50"]
    assert len(events) == len(set(events)) == int(walk.pages["wide turn count"][0]) >= 2000
