"""Generate a deterministic corpus of Codex and Claude Code trace files plus ``manifest.json``.

The same ``seed`` and ``events`` always give the same bytes. ``events`` counts JSONL records (one record is one
raw event; the store may fold Codex mirror records, so its event count is somewhat lower).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tools.corpus.claude import ClaudeWriter
from tools.corpus.codex import CodexWriter
from tools.corpus.needles import Needle, Placement, make_needles, plant
from tools.corpus.plan import Project, SessionPlan, make_projects, plan_turn
from tools.corpus.trace import TraceFile, iso, uuid4, uuid7
from tools.corpus.vocab import Vocabulary

__all__ = ["CorpusSummary", "SOURCES", "generate"]

MANIFEST = "manifest.json"
SOURCES = (
    {"name": "codex", "harness": "codex", "root": "codex/sessions", "glob": "codex/sessions/**/*.jsonl"},
    {
        "name": "claude",
        "harness": "claude-code",
        "root": "claude/projects",
        "glob": "claude/projects/**/*.jsonl",
    },
)
_END_MS = int(datetime(2026, 11, 1, tzinfo=UTC).timestamp() * 1000)
_SPAN_MS = 120 * 86_400_000
_CODEX_MODELS = ("gpt-5.3-codex", "gpt-5.2-codex", "gpt-5.1")
_CLAUDE_MODELS = ("claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001")
# Common and multi-term benchmark queries: head-of-distribution words and mid-frequency programming words.
_COMMON = ("error", "test", "config", "file", "function")
_MULTI = (
    "retry timeout worker",
    "schema migration index",
    "parser tokenizer posting",
    "docker service endpoint",
)


@dataclass(frozen=True, slots=True)
class CorpusSummary:
    events: int
    files: int
    sessions: int
    bytes: int
    manifest: Path


def _session_plan(rng: random.Random, projects: list[Project], started_ms: int) -> SessionPlan:
    project = projects[min(int(rng.paretovariate(0.9)) - 1, len(projects) - 1)]
    codex = rng.random() < 0.55
    roll = rng.random()
    if roll < 0.7:
        cwd = project.root
    elif roll < 0.85:
        cwd = project.worktrees[0]
    else:
        cwd = project.worktrees[2] if codex else project.worktrees[1]
    branch = "main" if cwd == project.root else cwd.rsplit("/", 1)[-1]
    if codex:
        return SessionPlan(
            "codex", uuid7(rng, started_ms), project, cwd, branch, started_ms, rng.choice(_CODEX_MODELS)
        )
    title = None
    if rng.random() < 0.35:
        title = " ".join(
            w.capitalize()
            for w in rng.sample(
                [
                    "Debug",
                    "Fix",
                    "Refactor",
                    "Add",
                    "Speed",
                    "up",
                    "search",
                    "ingest",
                    "parser",
                    "tests",
                    "store",
                    "schema",
                    "cache",
                ],
                4,
            )
        )
    return SessionPlan(
        "claude-code", uuid4(rng), project, cwd, branch, started_ms, rng.choice(_CLAUDE_MODELS), title
    )


def generate(out: Path, events: int, seed: int = 1) -> CorpusSummary:
    """Write ``events`` records of trace files under ``out`` with a manifest; return what was written."""
    if events < 100:
        raise ValueError("events must be at least 100")
    rng = random.Random(seed)
    vocab = Vocabulary.build(rng)
    projects = make_projects(rng, vocab, max(4, min(60, events // 15_000)))
    per_kind = max(2, min(12, events // 50_000))
    needles, placements = make_needles(rng, per_kind)
    thresholds = [int(events * (0.02 + 0.8 * i / len(placements))) for i in range(len(placements))]
    est_sessions = max(1, events // 130)
    gap_ms = _SPAN_MS // est_sessions
    started_ms = _END_MS - _SPAN_MS
    written = total_bytes = 0
    sessions: list[dict[str, Any]] = []
    pending = 0  # index of the next placement
    while written < events:
        started_ms += int(rng.expovariate(1 / gap_ms)) + 1
        plan = _session_plan(rng, projects, started_ms)
        writer: CodexWriter | ClaudeWriter = (
            CodexWriter(rng, plan) if plan.harness == "codex" else ClaudeWriter(rng, plan)
        )
        budget = min(max(15, min(4_000, int(rng.lognormvariate(4.6, 1.0)))), events - written)
        carried: list[Placement] = []
        while len(writer.file.lines) < budget:
            last = len(writer.file.lines) > budget * 0.8
            turn = plan_turn(rng, vocab, plan, last)
            if pending < len(placements) and written + len(writer.file.lines) >= thresholds[pending]:
                plant(rng, vocab, placements[pending], turn, plan)
                carried.append(placements[pending])
                pending += 1
            writer.turn(turn)
        trace = writer.file
        if written + len(trace.lines) > events:
            del trace.lines[events - written :]
        total_bytes += _write(out, trace)
        _locate(needles, trace, writer.source, writer.harness, plan.session_id)
        sessions.append(
            {
                "harness": writer.harness,
                "source": writer.source,
                "session_id": plan.session_id,
                "file": trace.rel_path,
                "events": len(trace.lines),
                "project": plan.project.name,
                "cwd": plan.cwd,
                "started_at": iso(plan.started_ms),
                "ended_at": iso(trace.clock_ms),
            }
        )
        written += len(trace.lines)
    manifest = {
        "generator": "tools.corpus",
        "format_version": 1,
        "seed": seed,
        "events": written,
        "bytes": total_bytes,
        "files": len(sessions),
        "sources": list(SOURCES),
        "time_range": {"start": iso(_END_MS - _SPAN_MS), "end": max(s["ended_at"] for s in sessions)},
        "queries": {
            "common": list(_COMMON),
            "multi": list(_MULTI),
            "paths": [p.paths[0] for p in projects[:3]],
        },
        "needles": [n.to_json() for n in needles if n.locations],
        "sessions": sessions,
    }
    path = out / MANIFEST
    path.write_text(
        json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return CorpusSummary(written, len(sessions), len(sessions), total_bytes, path)


def _write(out: Path, trace: TraceFile) -> int:
    path = out / trace.rel_path
    path.parent.mkdir(parents=True, exist_ok=True)
    data = trace.text().encode("utf-8")
    path.write_bytes(data)
    return len(data)


def _locate(needles: list[Needle], trace: TraceFile, source: str, harness: str, session_id: str) -> None:
    by_id = {n.id: n for n in needles}
    for mark in trace.marks:
        if mark.index >= len(trace.lines):
            continue  # cut off by the event budget
        needle_id, _, decoy = mark.needle.partition("#")
        location = {
            "file": trace.rel_path,
            "line": mark.index + 1,
            "harness": harness,
            "source": source,
            "session_id": session_id,
            "event_type": mark.event_type,
        }
        (by_id[needle_id].decoys if decoy else by_id[needle_id].locations).append(location)
