"""Harness-neutral plans of projects, sessions and turns; the harness writers turn them into trace records."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from tools.corpus.vocab import Vocabulary

__all__ = [
    "Ending",
    "Project",
    "SessionPlan",
    "TextStep",
    "ToolKind",
    "ToolStep",
    "TurnPlan",
    "make_projects",
    "plan_turn",
]

ToolKind = Literal["shell", "read", "edit", "write", "search", "task", "web"]
Ending = Literal["complete", "aborted", "open"]

_BRANCHES = ("main", "feature-search", "fix-ingest", "perf-tuning", "refactor-store", "docs", "release-1-2")
_HOME = "/home/dev"


@dataclass(slots=True)
class Project:
    """A repository: its main checkout, sibling and agent-isolation worktrees, and its files."""

    name: str
    root: str
    worktrees: list[str]
    paths: list[str]


@dataclass(slots=True)
class SessionPlan:
    harness: Literal["codex", "claude-code"]
    session_id: str
    project: Project
    cwd: str
    branch: str
    started_ms: int
    model: str
    title: str | None = None


@dataclass(slots=True)
class TextStep:
    kind: Literal["reasoning", "commentary"]
    text: str


@dataclass(slots=True)
class ToolStep:
    """One tool call and its result. ``path`` is the file the call names (absolute or cwd-relative)."""

    kind: ToolKind
    path: str | None
    command: str | None
    output: str
    exit_code: int = 0
    old_text: str | None = None  # edit: the text replaced
    new_text: str | None = None  # edit/write: the new text
    needle: str | None = None  # needle id planted in the call's arguments
    output_needle: str | None = None  # needle id planted in the result


@dataclass(slots=True)
class TurnPlan:
    user_text: str
    steps: list[TextStep | ToolStep]
    final_text: str | None  # None: the turn never produced a final answer
    ending: Ending
    user_needle: str | None = None
    final_needle: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


def make_projects(rng: random.Random, vocab: Vocabulary, count: int) -> list[Project]:
    """Return ``count`` projects, each with a main checkout, worktrees and a file tree."""
    projects: list[Project] = []
    names: set[str] = set()
    while len(projects) < count:
        name = "-".join(rng.sample(vocab.words[60:400], 2))
        if name in names:
            continue
        names.add(name)
        root = f"{_HOME}/src/{name}"
        branch = rng.choice(_BRANCHES[1:])
        worktrees = [
            f"{_HOME}/src/{name}-{branch}",  # sibling worktree
            f"{root}/.claude/worktrees/{rng.choice(_BRANCHES[1:])}",  # Claude Code agent isolation
            f"{_HOME}/.codex/worktrees/{rng.getrandbits(16):04x}/{name}",  # Codex agent isolation
        ]
        projects.append(Project(name, root, worktrees, vocab.project_paths(rng, rng.randint(60, 240))))
    return projects


def _pick_path(rng: random.Random, session: SessionPlan) -> str:
    rel = session.project.paths[min(int(rng.paretovariate(1.2)) - 1, len(session.project.paths) - 1)]
    return f"{session.cwd}/{rel}" if rng.random() < 0.5 else rel


def _shell_command(rng: random.Random, vocab: Vocabulary, path: str) -> str:
    ident = rng.choice(vocab.identifiers[:1500])
    options = (
        f"rg -n '{ident}' {path.rsplit('/', 1)[0] if '/' in path else '.'}",
        f"sed -n '1,{rng.randint(40, 400)}p' {path}",
        f"pytest -q -k {ident.lower()} tests/",
        f"cat {path}",
        f"git diff --stat -- {path}",
        f"cargo test {ident.lower()} -- --nocapture",
        f"npm run lint -- {path}",
        f"python -m mypy {path}",
        "git status --short",
        f"ls -la {path.rsplit('/', 1)[0] if '/' in path else '.'}",
    )
    return rng.choice(options)


def plan_tool(rng: random.Random, vocab: Vocabulary, session: SessionPlan) -> ToolStep:
    """Return one tool step: shell commands, reads, edits and writes naming project files."""
    path = _pick_path(rng, session)
    roll = rng.random()
    failed = rng.random() < 0.08
    if roll < 0.45:
        long_output = rng.random() < 0.04
        lo, hi = (80, 400) if long_output else (1, 24)
        return ToolStep(
            "shell",
            None,
            _shell_command(rng, vocab, path),
            vocab.lines(rng, vocab.log_lines, lo, hi),
            exit_code=1 if failed else 0,
        )
    if roll < 0.65:
        return ToolStep("read", path, None, vocab.lines(rng, vocab.code_lines, 4, 70))
    if roll < 0.85:
        old = vocab.lines(rng, vocab.code_lines, 1, 6)
        new = vocab.lines(rng, vocab.code_lines, 1, 8)
        return ToolStep("edit", path, None, "The file has been updated.", old_text=old, new_text=new)
    if roll < 0.92:
        return ToolStep(
            "write",
            path,
            None,
            "File created successfully.",
            new_text=vocab.lines(rng, vocab.code_lines, 10, 80),
        )
    if roll < 0.97:
        ident = rng.choice(vocab.identifiers[:2000])
        folder = path.rsplit("/", 1)[0] if "/" in path else "."
        return ToolStep("search", folder, ident, vocab.lines(rng, vocab.log_lines, 1, 30))
    if roll < 0.99:
        return ToolStep("task", None, vocab.text(rng, 15, 60), vocab.text(rng, 30, 160))
    return ToolStep("web", None, " ".join(rng.sample(vocab.words[:500], 3)), vocab.text(rng, 20, 80))


def plan_turn(rng: random.Random, vocab: Vocabulary, session: SessionPlan, last: bool) -> TurnPlan:
    """Return one turn: a user message, reasoning/commentary/tool steps, and an ending."""
    long_paste = rng.random() < 0.05
    user_text = vocab.text(rng, 150, 500) if long_paste else vocab.text(rng, 4, 60)
    steps: list[TextStep | ToolStep] = []
    n_steps = min(int(rng.expovariate(1 / 5)) + 1, 40)
    for _ in range(n_steps):
        roll = rng.random()
        if roll < 0.2:
            steps.append(TextStep("reasoning", vocab.text(rng, 10, 90)))
        elif roll < 0.35:
            steps.append(TextStep("commentary", vocab.text(rng, 8, 40)))
        else:
            steps.append(plan_tool(rng, vocab, session))
    ending: Ending = "complete"
    if last and rng.random() < 0.3:
        ending = "open"
    elif rng.random() < 0.03:
        ending = "aborted"
    final = vocab.text(rng, 15, 160) if ending == "complete" else None
    return TurnPlan(user_text, steps, final, ending)
