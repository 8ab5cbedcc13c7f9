"""The prompt hook on LoCoMo: every question as a prompt, through the daemon's hook route and then through
``moraine hook prompt`` itself, on the homes ``python -m tools.relevance --locomo DIR --keep HOMES`` keeps.

Per question the route answers, with ``explain``, every candidate hit and the confidence signals (coverage,
margin); the sweep applies each gate to them: an injection is the first ``max_hits`` candidates when the gate
passes. Reported per gate: the share of injections holding an evidence turn (answerable questions, categories
1-4), the share of answerable questions given nothing, and the share of adversarial questions (category 5, which
the conversation cannot answer) given something. ``check`` then runs the real hook process with the chosen gate
in the home's config and reports the same figures from what it printed.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx2 as httpx

from moraine.daemon.report import fetch_report
from moraine.daemon.routes import HOOK_PATH
from tools.relevance.locomo import MORAINE, Home, stop_daemon, wait_for
from tools.relevance.locomo_data import Conversation, load_conversation

__all__ = ["Asked", "Gate", "ask_route", "check", "sweep", "turn_of"]

ADVERSARIAL = 5
_EVENT_ID = re.compile(r"\[(event:evt_[0-9A-Z]+)\]")


@dataclass(frozen=True, slots=True)
class Gate:
    min_coverage: float
    min_margin: float
    max_hits: int


@dataclass(slots=True)
class Asked:
    """One question: its category, whether it has evidence, the candidates' turns and the signals."""

    category: int
    evidence: frozenset[str]
    turns: list[str | None]  # the candidates' dia_ids, best first
    coverage: float
    margin: float
    injected: list[str | None] = field(default_factory=list)  # check: the turns the hook printed
    printed: bool = False
    seconds: float = 0.0


def turn_of(
    conversation: Conversation, numbers: dict[str, int], session: str, stamp: str | None
) -> str | None:
    """The dia_id of a hit (each turn is one message, one minute after the previous one)."""
    number = numbers.get(session)
    if number is None or not stamp:
        return None
    start = conversation.sessions[number][0]
    minute = round((datetime.fromisoformat(stamp.replace("Z", "+00:00")) - start).total_seconds() / 60)
    return conversation.turn_id(number, minute)


def _numbers(conversation: Conversation) -> dict[str, int]:
    from moraine.ids import session_id, session_key

    return {session_id(session_key("claude", conversation.session_uuid(n))): n for n in conversation.sessions}


def ask_route(
    socket: Path, cwd: Path, conversation: Conversation
) -> tuple[list[Asked], dict[str, str | None]]:
    """Every question through the route with ``explain``; also the turn of every candidate event ID seen."""
    numbers = _numbers(conversation)
    asked, turns_by_id = [], {}
    with httpx.Client(transport=httpx.HTTPTransport(uds=str(socket)), timeout=60) as client:
        for q in conversation.questions:
            body = {"event": "prompt", "cwd": str(cwd), "prompt": q.text, "explain": True}
            answer = client.post("http://moraine.daemon" + HOOK_PATH, json=body).json()
            candidates = answer.get("candidates", [])
            turns = [turn_of(conversation, numbers, c["session"], c["timestamp"]) for c in candidates]
            turns_by_id.update({c["event"]: t for c, t in zip(candidates, turns, strict=True)})
            first = candidates[0] if candidates else {"coverage": 0.0, "margin": 0.0}
            asked.append(Asked(q.category, q.evidence, turns, first["coverage"], first["margin"]))
    return asked, turns_by_id


def _figures(rows: list[tuple[Asked, bool, list[str | None]]]) -> dict[str, Any]:
    """(question, injected, injected turns) -> the three shares."""
    answerable = [(a, i, t) for a, i, t in rows if a.category != ADVERSARIAL and a.evidence]
    adversarial = [(a, i, t) for a, i, t in rows if a.category == ADVERSARIAL]
    injections = [(a, t) for a, i, t in answerable if i]
    with_evidence = sum(1 for a, t in injections if any(turn in a.evidence for turn in t))
    return {
        "answerable": len(answerable),
        "adversarial": len(adversarial),
        "evidence_in_injections": with_evidence / len(injections) if injections else 0.0,
        "answerable_injected": len(injections) / len(answerable) if answerable else 0.0,
        "answerable_without": 1 - len(injections) / len(answerable) if answerable else 0.0,
        "adversarial_injected": sum(1 for _, i, _ in adversarial if i) / len(adversarial)
        if adversarial
        else 0.0,
    }


def sweep(asked: list[Asked], gates: list[Gate]) -> list[tuple[Gate, dict[str, Any]]]:
    """The figures of each gate over the explained questions."""
    table = []
    for gate in gates:
        rows = []
        for a in asked:
            passes = bool(a.turns) and a.coverage >= gate.min_coverage and a.margin >= gate.min_margin
            rows.append((a, passes, a.turns[: gate.max_hits] if passes else []))
        table.append((gate, _figures(rows)))
    return table


def _hook(home: Home, cwd: Path, prompt: str) -> tuple[str, float]:
    data = json.dumps({"cwd": str(cwd), "prompt": prompt, "hook_event_name": "UserPromptSubmit"})
    started = time.perf_counter()
    done = subprocess.run(
        [str(MORAINE), "hook", "prompt", "--format", "json"],
        input=data.encode(),
        env=home.env,
        cwd=cwd,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode(), time.perf_counter() - started


def check(
    home: Home, cwd: Path, conversation: Conversation, turns_by_id: dict[str, str | None]
) -> list[Asked]:
    """Every question through ``moraine hook prompt`` (the home's [hooks] table is the gate)."""
    asked = []
    for q in conversation.questions:
        out, seconds = _hook(home, cwd, q.text)
        text = json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""
        turns = [turns_by_id.get(event) for event in _EVENT_ID.findall(text)]
        asked.append(Asked(q.category, q.evidence, [], 0.0, 0.0, turns, bool(text), seconds))
    return asked


def check_figures(asked: list[Asked]) -> dict[str, Any]:
    return _figures([(a, a.printed, a.injected) for a in asked])


def hooks_table(gate: Gate) -> str:
    """The [hooks] table that makes ``gate`` the product's."""
    return f"[hooks]\nmin_coverage = {gate.min_coverage}\nmin_margin = {gate.min_margin}\nmax_hits = {gate.max_hits}\n"


@contextmanager
def served(root: Path, gate: Gate | None) -> Iterator[tuple[Home, Path]]:
    """Run a kept conversation home's daemon (semantic on: its vectors are kept) with ``gate`` as its [hooks]
    table; yield the home and the daemon's socket, and stop the daemon afterwards."""
    home = Home(root)
    home.configure(semantic=True)
    if gate is not None:
        with (home.moraine_home / "config.toml").open("a") as config:
            config.write(hooks_table(gate))
    with (root / "serve.out").open("ab") as out:
        process = subprocess.Popen(
            [str(MORAINE), "serve"], env=home.env, cwd=root, stdout=out, stderr=out, stdin=subprocess.DEVNULL
        )
    try:
        socket = wait_for(home.socket, 120, f"the daemon of {root}")
        wait_for(lambda: _embedded(socket), 3600, "the embedder's backlog")  # hybrid from the first question
        yield home, socket
    finally:
        stop_daemon(process)


def _embedded(socket: Path) -> bool:
    counts = fetch_report(socket, 1).counts
    return counts["vectors"] >= counts["events"] // 2 and counts["vectors_pending"] == 0


def conversation_of(root: Path, benchmark: Path) -> Conversation:
    return load_conversation(benchmark / f"{root.name}.json")
