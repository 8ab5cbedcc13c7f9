"""The benchmark's tool calls: search (rare/common/multi-term x global/session/turn), open, list, file_attention.

Queries come from the corpus manifest (needles, common words, multi-term phrases); session, turn and event IDs are
found through the tools themselves (untimed), so every ID is one the tools really return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from moraine.ids import session_id, session_key
from tools.bench.client import ToolClient, ToolFailed

__all__ = [
    "MAX_VARIANTS",
    "RARE_KINDS",
    "Case",
    "build_cases",
    "manifest_cases",
    "moraine_session",
    "search_args",
]

Json = dict[str, Any]
DEFAULT_TYPES = ["user_input", "assistant_response"]
RARE_KINDS = ("user_rare", "assistant_ident", "unicode", "cjk")
MAX_VARIANTS = 10  # argument variants per case: each is warmed up once, so more would only cost time


@dataclass(slots=True)
class Case:
    name: str
    tool: str
    variants: list[Json]
    notes: list[str] = field(default_factory=list)


def search_args(
    query: str, within_id: str | None = None, event_types: list[str] | None = None, n_hits: int = 10
) -> Json:
    return {
        "query": query,
        "within_id": within_id,
        "event_types": event_types or list(DEFAULT_TYPES),
        "harness": None,
        "source": None,
        "n_hits": n_hits,
    }


def _attention_args(path: str) -> Json:
    return {
        "path": path,
        "scope": "all",
        "granularity": "sessions",
        "start_datetime": None,
        "end_datetime": None,
        "tool": None,
        "harness": None,
        "source": None,
        "mutations_only": False,
        "limit": 25,
    }


def _list_args(start: datetime, end: datetime) -> Json:
    return {
        "start_datetime": start.isoformat().replace("+00:00", "Z"),
        "end_datetime": end.isoformat().replace("+00:00", "Z"),
        "limit": 20,
        "cursor": None,
        "mode": None,
        "harness": None,
        "source": None,
        "sort": "desc",
    }


def moraine_session(entry: Json) -> str:
    """Return the Moraine session ID of a manifest session or needle location."""
    return session_id(session_key(entry["source"], entry["session_id"]))


def _hits(client: ToolClient, args: Json) -> list[Json]:
    try:
        results: list[Json] = client.call("search_sessions", args)["results"]
    except ToolFailed:
        return []
    return results


def _biggest_sessions(manifest: Json) -> list[str]:
    return [moraine_session(s) for s in sorted(manifest["sessions"], key=lambda s: -s["events"])[:4]]


def manifest_cases(manifest: Json, max_variants: int = MAX_VARIANTS) -> list[Case]:
    """Return the search cases whose arguments the manifest alone gives (global and session scope): no call is
    made to find them."""
    needles = [n for n in manifest["needles"] if n["kind"] in RARE_KINDS]
    rare = [n["query"] for n in needles]
    rare_sessions = [moraine_session(n["locations"][0]) for n in needles]
    common: list[str] = manifest["queries"]["common"]
    multi: list[str] = manifest["queries"]["multi"]
    big_sessions = _biggest_sessions(manifest)
    cases = [
        Case("search rare global", "search_sessions", [search_args(q) for q in rare]),
        Case("search common global", "search_sessions", [search_args(q) for q in common]),
        Case("search multi-term global", "search_sessions", [search_args(q) for q in multi]),
        Case(
            "search rare session",
            "search_sessions",
            [search_args(q, s) for q, s in zip(rare, rare_sessions, strict=True)],
        ),
        Case(
            "search common session",
            "search_sessions",
            [search_args(q, s) for q in common for s in big_sessions],
        ),
        Case(
            "search multi-term session",
            "search_sessions",
            [search_args(q, s) for q in multi for s in big_sessions],
        ),
    ]
    return [Case(c.name, c.tool, c.variants[:max_variants]) for c in cases if c.variants]


def build_cases(client: ToolClient, manifest: Json, max_variants: int = MAX_VARIANTS) -> list[Case]:
    """Return every benchmark case with up to ``max_variants`` argument variants (cases with no variant are left
    out)."""
    rare = [n["query"] for n in manifest["needles"] if n["kind"] in RARE_KINDS]
    common: list[str] = manifest["queries"]["common"]
    multi: list[str] = manifest["queries"]["multi"]
    big_sessions = _biggest_sessions(manifest)

    def turns_of(queries: list[str], scopes: Sequence[str | None]) -> list[str]:
        found: list[str] = []
        for query in queries:
            for scope in scopes:
                found.extend(h["open"]["turn_id"] for h in _hits(client, search_args(query, scope))[:2])
        return list(dict.fromkeys(found))[:12]

    rare_turns = turns_of(rare, [None])
    common_turns = turns_of(common, big_sessions[:2])
    multi_turns = turns_of(multi, big_sessions[:2])
    events = list(
        dict.fromkeys(
            h["open"]["event_id"] for q in [*common, *rare] for h in _hits(client, search_args(q))[:3]
        )
    )[:20]
    cases = [
        *manifest_cases(manifest, max_variants),
        Case(
            "search rare turn", "search_sessions", [search_args(q, t) for q in rare for t in rare_turns[:1]]
        ),
        Case(
            "search common turn", "search_sessions", [search_args(q, t) for q in common for t in common_turns]
        ),
        Case(
            "search multi-term turn",
            "search_sessions",
            [search_args(q, t) for q in multi for t in multi_turns],
        ),
        Case("open event", "open", [{"id": e} for e in events]),
        Case("open session (id only)", "open", [{"id": s} for s in big_sessions]),
        Case("open session page (50 turns)", "open", [{"id": s, "limit": 50} for s in big_sessions]),
        Case(
            "open turn page (50 events)",
            "open",
            [{"id": t, "limit": 50} for t in [*common_turns, *multi_turns]],
        ),
    ]
    start = datetime.fromisoformat(manifest["time_range"]["start"].replace("Z", "+00:00"))
    end = datetime.fromisoformat(manifest["time_range"]["end"].replace("Z", "+00:00")) + timedelta(seconds=1)
    windows = [(end - timedelta(days=d), end) for d in (1, 7, 30)] + [(start, end)]
    cases.append(Case("list_sessions (20 per page)", "list_sessions", [_list_args(a, b) for a, b in windows]))
    paths = [n["query"] for n in manifest["needles"] if n["kind"] == "file_path"] + list(
        manifest["queries"].get("paths", [])
    )
    cases.append(Case("file_attention (sessions)", "file_attention", [_attention_args(p) for p in paths]))
    return [Case(c.name, c.tool, c.variants[:max_variants]) for c in cases if c.variants]
