"""The traversal contract: every returned ID opens, parents and neighbours agree, cursors give every child once."""

from __future__ import annotations

from typing import Any

from tools.conformance.discover import WIDE_RANGE, Corpus
from tools.conformance.probe import Answer, Probe
from tools.conformance.report import Report

__all__ = ["run_traversal"]

S = "traversal"


class Opener:
    """Opens IDs once each and remembers the answers."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.seen: dict[str, Answer] = {}

    async def open(self, target: str) -> Answer:
        if target not in self.seen:
            self.seen[target] = await self.probe.call("open", {"id": target})
        return self.seen[target]


async def _opens(
    report: Report, opener: Opener, name: str, target: str | None, kind: str
) -> dict[str, Any] | None:
    if not target:
        report.add(S, name, False, "no ID to follow")
        return None
    answer = await opener.open(target)
    passed = answer.ok and answer.data.get("kind") == kind
    report.add(S, name, passed, answer.describe() if not passed else f"opens as {kind}")
    return answer.data if passed else None


async def _children(probe: Probe, target: str, limit: int, key: str) -> tuple[list[str], str | None]:
    answer = await probe.call("open", {"id": target, "limit": limit})
    if not answer.ok:
        return [], answer.describe()
    ids = [item["id"] for item in answer.data[key]]
    while answer.data.get("next_cursor"):
        answer = await probe.call("open", {"cursor": answer.data["next_cursor"]})
        if not answer.ok or len(answer.data[key]) > limit:
            return ids, f"continuation failed or exceeded its limit: {answer.describe()}"
        ids.extend(item["id"] for item in answer.data[key])
    return ids, None


async def run_traversal(probe: Probe, report: Report, c: Corpus) -> None:
    """Follow every traversal path the interface document requires, from search and list answers."""
    opener = Opener(probe)
    search = await probe.call("search_sessions", {"query": c.query})
    hit = search.data["results"][0] if search.ok and search.data.get("results") else {}
    hit_open = hit.get("open", {})
    event = await _opens(report, opener, "search hit -> event", hit_open.get("event_id"), "event")
    await _opens(report, opener, "search hit -> turn", hit_open.get("turn_id"), "turn")
    await _opens(report, opener, "search hit -> session", hit_open.get("session_id"), "session")
    listing = await probe.call("list_sessions", {**WIDE_RANGE, "limit": 5})
    rows = listing.data.get("sessions", []) if listing.ok else []
    await _opens(report, opener, "listed session -> session", rows[0]["open"]["session_id"] if rows else None,
                 "session")  # fmt: skip
    if event is None:
        return
    nav = event["traversal"]
    report.add(S, "event parents agree with the search hit", (nav["turn_id"], nav["session_id"]) == (
        hit_open.get("turn_id"), hit_open.get("session_id")), str(nav))  # fmt: skip
    turn = await _opens(report, opener, "event -> parent turn", nav["turn_id"], "turn")
    await _opens(report, opener, "event -> parent session", nav["session_id"], "session")
    await _neighbours(report, opener, "event", event["event"]["id"], nav, "event")
    await _neighbours(report, opener, "event", event["event"]["id"], nav, "turn")
    if turn is not None:
        tnav = turn["traversal"]
        report.add(S, "turn -> parent session agrees", tnav["session_id"] == nav["session_id"], str(tnav))
        await _neighbours(report, opener, "turn", turn["turn"]["id"], tnav, "turn")
        await _opens(report, opener, "turn -> first event", tnav.get("first_event_id"), "event")
        await _opens(report, opener, "turn -> last event", tnav.get("last_event_id"), "event")
    session = await _opens(report, opener, "session (chosen) opens", c.session_id, "session")
    if session is not None:
        await _opens(
            report, opener, "session -> first turn", session["traversal"].get("first_turn_id"), "turn"
        )
        await _opens(report, opener, "session -> last turn", session["traversal"].get("last_turn_id"), "turn")
    turn_page, event_page = _page(c.turn_count), _page(c.event_count)
    for target, key, count, limit in [
        (c.session_id, "turns", c.turn_count, turn_page),
        (c.session_id, "turns", c.turn_count, turn_page + 1),
        (c.turn_id, "events", c.event_count, event_page),
        (c.turn_id, "events", c.event_count, event_page + 1),
    ]:
        ids, problem = await _children(probe, target, limit, key)
        complete = problem is None and len(ids) == count == len(set(ids))
        report.add(S, f"every {key[:-1]} once via cursors (limit {limit})", complete,
                   problem or f"{len(ids)} returned, {len(set(ids))} distinct, count says {count}")  # fmt: skip


def _page(count: int) -> int:
    """Return a page size that splits ``count`` children into a handful of pages (at least two when possible)."""
    return max(1, min(49, count // 5))


async def _neighbours(
    report: Report, opener: Opener, kind: str, own: str, nav: dict[str, Any], of: str
) -> None:
    """Open previous/next ``of`` references (null is fine at a boundary) and check they point back."""
    for direction, back in (("previous", "next"), ("next", "previous")):
        target = nav.get(f"{direction}_{of}_id")
        name = f"{kind} -> {direction} {of}"
        if target is None:
            report.add(S, name, True, "null (boundary)")
            continue
        data = await _opens(report, opener, name, target, of)
        if data is not None and of == kind:
            points_back = data["traversal"].get(f"{back}_{of}_id") == own
            report.add(S, f"{name} points back", points_back, str(data["traversal"])[:160])
