"""What a hook gives the agent: the daemon's side of ``moraine hook EVENT`` (route ``/v1/daemon/hook``).

- ``session-start``: this project's recent sessions (the launch directory's project, as ``--project-only`` sees
  it), newest first, never the starting one: title, when, how it ended, its resume command, its ID.
- ``prompt``: the best hits for the prompt from other sessions (never the current one), a short excerpt and the
  ``open`` ID each, only when the ranking is confident (``confident``); nothing otherwise. Only the working
  folder's project is searched with ``--project-only`` or ``[mcp] project_only = true``.
- ``compact``: the turns of the current session so far (its prompts), newest kept first when the budget is short.

Everything goes through the tools (``ToolService.call``): the same checks, redacted store text and project floor as
any client. The text fits ``budget_tokens`` (four characters a token); the prompt is never logged or echoed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio

from moraine.errors import ConfigError, MoraineError
from moraine.hooks.run import EVENTS
from moraine.hooks.settings import HookSettings
from moraine.ids import session_id
from moraine.projects.floor import resolve_floor
from moraine.server.service import ToolService
from moraine.store.reads.floor import ProjectFloor
from moraine.store.reads.native import native_session_key
from moraine.terms.query import parse_query
from moraine.terms.tokenize import tokenize

__all__ = ["HookRequest", "Injection", "compose", "confident", "parse_hook_request", "signals", "tokens"]

_MAX_PROMPT = 4096  # search_sessions' query limit
_CANDIDATES = 10  # hits asked for a prompt: the current session's own hits are dropped from them
_EXCERPT_CHARS = 300
_TITLE_CHARS = 80
_TURN_CHARS = 160
_CHARS_PER_TOKEN = 4
_EARLIEST = "2000-01-01T00:00:00Z"


@dataclass(frozen=True, slots=True)
class HookRequest:
    event: str
    harness: str | None
    session: str | None  # the harness's own session ID, as the hook's input names it
    cwd: Path
    prompt: str | None
    project_only: bool
    explain: bool = False  # benchmarks: answer every candidate with its signals, gate off (never from a hook)


@dataclass(slots=True)
class Injection:
    """The text a hook prints ('' for nothing), the hits it names, and why it is empty when it is."""

    text: str = ""
    hits: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    candidates: list[dict[str, Any]] = field(default_factory=list)  # with ``explain`` only

    @property
    def tokens(self) -> int:
        return tokens(self.text)

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"text": self.text, "tokens": self.tokens, "hits": self.hits}
        if self.reason:
            body["reason"] = self.reason
        if self.candidates:
            body["candidates"] = self.candidates
        return body


def tokens(text: str) -> int:
    """The token estimate every budget uses: four characters a token, rounded up."""
    return -(-len(text) // _CHARS_PER_TOKEN)


def parse_hook_request(body: Any) -> HookRequest:
    """Read a hook route's body.

    Raises:
        ValueError: a field is missing or of the wrong type (the message names it).
    """
    if not isinstance(body, dict):
        raise ValueError("body must be a JSON object")
    event = body.get("event")
    if event not in EVENTS:
        raise ValueError(f"event must be one of {', '.join(EVENTS)}")
    cwd = body.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        raise ValueError("cwd must be an absolute path")
    values: dict[str, Any] = {}
    for key in ("harness", "session", "prompt"):
        value = body.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{key} must be a string or null")
        values[key] = value or None
    for key in ("project_only", "explain"):
        if not isinstance(body.get(key, False), bool):
            raise ValueError(f"{key} must be a boolean")
    return HookRequest(
        event,
        values["harness"],
        values["session"],
        Path(cwd),
        values["prompt"],
        bool(body.get("project_only", False)),
        bool(body.get("explain", False)),
    )


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _day(stamp: str | None) -> str:
    return (stamp or "")[:16].replace("T", " ")


class _Budget:
    """Lines added while they fit ``limit`` tokens (the header's included)."""

    def __init__(self, header: str, limit: int) -> None:
        self.lines = [header]
        self.limit = limit

    def add(self, line: str) -> bool:
        if tokens("\n".join([*self.lines, line])) > self.limit:
            return False
        self.lines.append(line)
        return True

    def text(self) -> str:
        return "\n".join(self.lines) if len(self.lines) > 1 else ""


def signals(prompt_terms: tuple[str, ...], hits: list[dict[str, Any]]) -> dict[str, float]:
    """The confidence signals of a page of hits (the current session's removed), best first.

    ``coverage``: the share of the prompt's terms (function words aside) found in the best hit's excerpt;
    ``margin``: the best hit's score minus the best score of any other session (the page's [0, 1] scale).
    """
    if not hits:
        return {"coverage": 0.0, "margin": 0.0}
    top = hits[0]
    found = set(tokenize(top["snippet"]["text"]))
    stems = {term[:5] for term in found}
    matched = sum(1 for term in prompt_terms if term in found or (len(term) > 5 and term[:5] in stems))
    other = next((h["score"] for h in hits[1:] if h["session"]["id"] != top["session"]["id"]), 0.0)
    return {
        "coverage": round(matched / len(prompt_terms), 3) if prompt_terms else 0.0,
        "margin": round(float(top["score"]) - float(other), 3),
    }


def confident(found: dict[str, float], settings: HookSettings) -> bool:
    """Whether a prompt's hits are worth injecting (thresholds from the LoCoMo table, docs/ranking.md)."""
    return found["coverage"] >= settings.min_coverage and found["margin"] >= settings.min_margin


Call = Callable[..., Any]


async def _data(service: ToolService, tool: str, arguments: dict[str, Any], **scope: Any) -> dict[str, Any]:
    reply = await service.call(tool, arguments, **scope)
    if reply.is_error:
        raise _Nothing(f"{tool}: {reply.envelope['error']['code']}")
    data: dict[str, Any] = reply.envelope["data"]
    return data


class _Nothing(Exception):
    """Nothing to inject; the message says why (for the daemon's log)."""


async def _current(service: ToolService, request: HookRequest) -> str | None:
    """The Moraine ID of the hook's own session, when it is stored."""
    if request.session is None:
        return None
    store = service.deps.store
    key = await anyio.to_thread.run_sync(
        lambda: native_session_key(store, request.session or "", harness=request.harness)
    )
    return session_id(key) if key is not None else None


def _floor(cwd: Path) -> ProjectFloor:
    try:
        return resolve_floor(str(cwd))
    except ConfigError as exc:
        raise _Nothing("the working folder's project cannot be established") from exc


async def _session_start(service: ToolService, request: HookRequest, settings: HookSettings) -> Injection:
    if settings.recent_sessions == 0:
        raise _Nothing("recent_sessions is 0")
    current = await _current(service, request)
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    arguments = {"start_datetime": _EARLIEST, "end_datetime": now, "limit": settings.recent_sessions + 1}
    scope = {"launch_dir": request.cwd, "floor": _floor(request.cwd)}
    data = await _data(service, "list_sessions", arguments, **scope)
    budget = _Budget(
        "Recent sessions in this project (moraine; `open` an ID to read one):", settings.budget_tokens
    )
    hits = []
    for row in [r for r in data["sessions"] if r["id"] != current][: settings.recent_sessions]:
        session = row["session"]
        opened = await _data(service, "open", {"id": row["id"]}, **scope)
        resume = opened["session"].get("resume_command")
        ended = "completed" if session.get("completed") else "ended mid-turn"
        line = (
            f"- {_day(session.get('updated_at'))} {_clip(session.get('title') or '(untitled)', _TITLE_CHARS)!r} "
            f"({session['harness']}, {session.get('turn_count', 0)} turns, {ended}) {row['id']}"
            + (f"; resume: {resume}" if resume else "")
        )
        if not budget.add(line):
            break
        hits.append({"session": row["id"]})
    return Injection(budget.text(), hits, "" if hits else "no other session in this project")


async def _prompt(service: ToolService, request: HookRequest, settings: HookSettings) -> Injection:
    prompt = (request.prompt or "").strip()[:_MAX_PROMPT]
    if not prompt:
        raise _Nothing("no prompt")
    try:
        terms = parse_query(prompt).terms
    except MoraineError as exc:
        raise _Nothing("the prompt has no searchable terms") from exc
    current = await _current(service, request)
    floor = _floor(request.cwd) if request.project_only or settings.project_only else None
    data = await _data(
        service,
        "search_sessions",
        {"query": prompt, "n_hits": _CANDIDATES},
        launch_dir=request.cwd,
        floor=floor,
    )
    hits = [h for h in data["results"] if h["session"]["id"] != current]
    found = signals(terms, hits)
    candidates = [_brief(h) | found for h in hits] if request.explain else []
    if not hits:
        return Injection(reason="no hits", candidates=candidates)
    if not request.explain and not confident(found, settings):
        return Injection(reason=f"not confident (coverage {found['coverage']}, margin {found['margin']})")
    budget = _Budget(
        "Earlier sessions on this (moraine; `open` an ID to read more, search_sessions to look further):",
        settings.budget_tokens,
    )
    chosen = []
    for hit in hits[: settings.max_hits]:
        session = hit["session"]
        line = (
            f"- {_day(session.get('updated_at'))} {_clip(session.get('title') or '(untitled)', _TITLE_CHARS)!r} "
            f"({session['harness']}): {_clip(hit['snippet']['text'], _EXCERPT_CHARS)} [{hit['id']}]"
        )
        if not budget.add(line):
            break
        chosen.append(_brief(hit))
    return Injection(budget.text(), chosen, candidates=candidates)


def _brief(hit: dict[str, Any]) -> dict[str, Any]:
    return {
        "event": hit["id"],
        "session": hit["session"]["id"],
        "timestamp": hit["event"].get("timestamp"),
        "score": hit["score"],
    }


async def _compact(service: ToolService, request: HookRequest, settings: HookSettings) -> Injection:
    current = await _current(service, request)
    if current is None:
        raise _Nothing("the session is not stored yet")
    limit = service.deps.settings.max_results
    data = await _data(service, "open", {"id": current, "limit": limit}, launch_dir=request.cwd)
    turns = data.get("turns") or []
    title = _clip(data["session"].get("title") or "(untitled)", _TITLE_CHARS)
    budget = _Budget(
        f"Before the compaction this session ({current}, {title!r}) was about (moraine; `open` a turn ID for it):",
        settings.budget_tokens,
    )
    lines = []
    for turn in reversed(turns):  # the newest turns matter most after a compaction: kept first
        said = (turn.get("user_input") or {}).get("text")
        if said:
            lines.append(f"- turn {turn['ordinal']}: {_clip(said, _TURN_CHARS)} [{turn['id']}]")
    kept = []
    for line in lines:
        if not budget.add(line):
            break
        kept.append(line)
    budget.lines[1:] = list(reversed(kept))
    return Injection(budget.text(), [{"session": current}] if kept else [], "" if kept else "no turns")


_EVENTS = {"session-start": _session_start, "prompt": _prompt, "compact": _compact}


async def compose(service: ToolService, request: HookRequest, settings: HookSettings) -> Injection:
    """Return what ``request``'s hook prints (an empty text with the reason when nothing)."""
    try:
        return await _EVENTS[request.event](service, request, settings)
    except _Nothing as exc:
        return Injection(reason=str(exc))
