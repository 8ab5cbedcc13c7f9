"""Find real IDs and filter values to test with, through the server's own answers (IDs stay opaque)."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any

from tools.conformance.probe import Probe

__all__ = ["Corpus", "WIDE_RANGE", "discover"]

WIDE_RANGE = {"start_datetime": "1970-01-01T00:00:00Z", "end_datetime": "2100-01-01T00:00:00Z"}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{4,}")


@dataclass(frozen=True)
class Corpus:
    """What the runner tests with: one session, turn and event that exist, and values that match them."""

    session: dict[str, Any]  # list_sessions row's session object
    session_id: str
    turn_id: str
    event_id: str
    turn_count: int
    event_count: int  # of the chosen turn
    query: str
    unknown_ids: dict[str, str]  # kind -> a well-formed ID that does not exist


class DiscoveryError(Exception):
    """The server holds too little data to run the matrix."""


async def discover(probe: Probe, unknown: dict[str, str]) -> Corpus:
    """Pick a session with at least one multi-event turn and a query word that search finds."""
    listing = await probe.call("list_sessions", {**WIDE_RANGE, "limit": 50})
    if not listing.ok or not listing.data.get("sessions"):
        raise DiscoveryError(f"list_sessions over 1970..2100 returned nothing usable: {listing.describe()}")
    rows = sorted(listing.data["sessions"], key=_preference)
    for row in rows[:10]:
        session_id = row["open"]["session_id"]
        opened = await probe.call("open", {"id": session_id, "limit": 50})
        turns = [t for t in opened.data.get("turns", []) if int(t.get("event_count") or 0) >= 2]
        if not opened.ok or not turns:
            continue
        turn = turns[0]
        expanded = await probe.call("open", {"id": turn["id"], "limit": 50})
        events = expanded.data.get("events", [])
        query = await _query(probe, opened.data.get("turns", []))
        if expanded.ok and events and query:
            ids = {"session": session_id, "turn": turn["id"], "event": events[0]["id"]}
            return Corpus(
                session=row["session"],
                session_id=session_id,
                turn_id=turn["id"],
                event_id=events[0]["id"],
                turn_count=int(row["session"]["turn_count"]),
                event_count=int(turn["event_count"]),
                query=query,
                unknown_ids={kind: unknown.get(kind) or await _unknown(probe, ids[kind]) for kind in ids},
            )
    raise DiscoveryError("no listed session has a turn with two or more events and a searchable word")


def _preference(row: dict[str, Any]) -> tuple[bool, int]:
    """Prefer sessions of several but not hundreds of turns (paging them completely stays quick)."""
    turns = int(row["session"].get("turn_count") or 0)
    return (not 2 <= turns <= 60, -turns)


async def _query(probe: Probe, turns: list[dict[str, Any]]) -> str | None:
    words = [
        w for t in turns for part in ("user_input", "final_response") for w in _WORD.findall(_text(t, part))
    ]
    for word in sorted(set(words), key=lambda w: (-len(w), w))[:8]:
        answer = await probe.call("search_sessions", {"query": word})
        if answer.ok and answer.data.get("results"):
            return str(word)
    return None


def _text(turn: dict[str, Any], part: str) -> str:
    value = turn.get(part) or {}
    return str(value.get("text") or "")


async def _unknown(probe: Probe, real: str) -> str:
    """Return a look-alike of ``real`` (one of its last characters changed) that the server says is not found."""
    alphabet = string.digits + string.ascii_uppercase + string.ascii_lowercase
    for position in range(len(real) - 1, max(len(real) - 6, 0), -1):
        for char in alphabet[:: 1 if position == len(real) - 1 else 7]:
            candidate = real[:position] + char + real[position + 1 :]
            if candidate == real:
                continue
            answer = await probe.call("open", {"id": candidate})
            if answer.code == "not_found":
                return candidate
    return real[:-1] + ("0" if real[-1] != "0" else "1")
