"""LoCoMo session-level retrieval through the product: its daemon ingests the transcripts, questions go through
``moraine mcp`` (a real MCP client over stdio), ranks come from the hits' sessions.

Per conversation: a throwaway home (``HOME`` and ``MORAINE_HOME``) whose ``~/.claude/projects`` holds the
transcripts; ``moraine serve`` indexes them with the standard Claude Code source; lexical runs with
``[semantic] enabled = false``, hybrid on the same store once the embedder has no backlog left.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from moraine.daemon.client import DaemonUnreachable, health
from moraine.daemon.report import fetch_report
from moraine.daemon.state import pid_alive, read_state
from moraine.ids import session_id, session_key
from tools.relevance.locomo_data import (
    CATEGORIES,
    Conversation,
    Question,
    load_conversation,
    write_transcripts,
)

__all__ = [
    "MORAINE",
    "PEER",
    "TURN_DEPTH",
    "Home",
    "LocomoScores",
    "Ranks",
    "category_names",
    "conversation_files",
    "rank_conversation",
    "rank_hits",
    "scores",
    "stop_daemon",
    "turn_rank",
    "wait_for",
]

MORAINE = Path(sys.executable).with_name("moraine")
N_HITS = 50
TURN_DEPTH = 10  # the evidence turn counts among the first ten event hits (MRR@10)
# Best published peer (deja-vu 0.18, lexical, all ten conversations): hit@1, hit@5, MRR.
PEER = (0.696, 0.857, 0.766)
_START_SECONDS = 120.0
_EMBED_SECONDS = 3 * 3600.0


@dataclass(frozen=True, slots=True)
class LocomoScores:
    questions: int
    hit1: float
    hit5: float
    mrr: float


@dataclass(slots=True)
class Ranks:
    """(category, rank) per question and method, for the gold session (``by_method``; 0: none among the hits)
    and for the evidence turn (``turns_by_method``; 0: none among the first ``TURN_DEPTH`` event hits)."""

    by_method: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    turns_by_method: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    embed_seconds: float = 0.0  # how long the hybrid daemon's embedder took to clear its backlog

    def extend(self, other: Ranks) -> None:
        for mine, theirs in (
            (self.by_method, other.by_method),
            (self.turns_by_method, other.turns_by_method),
        ):
            for method, ranks in theirs.items():
                mine.setdefault(method, []).extend(ranks)
        self.embed_seconds += other.embed_seconds


def scores(ranks: Sequence[tuple[int, int]], category: int | None = None) -> LocomoScores:
    """hit@1, hit@5 and MRR over the questions (of one category, or all)."""
    chosen = [r for c, r in ranks if category is None or c == category]
    n = len(chosen)
    if n == 0:
        return LocomoScores(0, 0.0, 0.0, 0.0)
    return LocomoScores(
        n,
        sum(1 for r in chosen if r == 1) / n,
        sum(1 for r in chosen if 1 <= r <= 5) / n,
        sum(1.0 / r for r in chosen if r > 0) / n,
    )


def conversation_files(directory: Path, only: Sequence[str] = ()) -> list[Path]:
    """The benchmark's conversation files (``conversation-*.json``), or only those whose stem ends with ``only``."""
    files = sorted(directory.glob("conversation-*.json"))
    if only:
        files = [f for f in files if any(f.stem.endswith(name) for name in only)]
    if not files:
        raise FileNotFoundError(
            f"no conversation-*.json files in {directory}" + (f" matching {only}" if only else "")
        )
    return files


class Home:
    """A Moraine home for one conversation (kept under ``root`` for reuse, or a temporary directory)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.moraine_home = root / ".moraine"

    @property
    def env(self) -> dict[str, str]:
        env = {
            "HOME": str(self.root),
            "MORAINE_HOME": str(self.moraine_home),
            "PATH": os.environ.get("PATH", ""),
        }
        if "PYTHONPATH" in os.environ:  # run the same checkout as this process
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        # The caller's cache, not one under the throwaway HOME: the daemon finds the redaction ruleset's
        # translation there instead of rebuilding it (seconds of CPU) for every conversation and method.
        env["XDG_CACHE_HOME"] = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return env

    def configure(self, semantic: bool) -> None:
        self.moraine_home.mkdir(parents=True, exist_ok=True, mode=0o700)
        text = f"[daemon]\nidle_exit_seconds = 0\n[semantic]\nenabled = {'true' if semantic else 'false'}\n"
        (self.moraine_home / "config.toml").write_text(text)

    def socket(self) -> Path | None:
        state = read_state(self.moraine_home / "run" / "daemon.json")
        if state is None or not pid_alive(state.pid):
            return None
        try:
            return Path(state.socket) if health(Path(state.socket))["pid"] == state.pid else None
        except DaemonUnreachable:
            return None


def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.5)


@contextmanager
def _serving(home: Home, semantic: bool, turns: int) -> Iterator[float]:
    """Run ``moraine serve`` until every turn is indexed (and, with ``semantic``, embedded); yield the seconds the
    embedder took; stop the daemon afterwards."""
    home.configure(semantic)
    with (home.root / "serve.out").open("ab") as out:
        process = subprocess.Popen(
            [str(MORAINE), "serve"],
            env=home.env,
            cwd=home.root,
            stdout=out,
            stderr=out,
            stdin=subprocess.DEVNULL,
        )
    try:
        socket = wait_for(home.socket, _START_SECONDS, f"the daemon of {home.root}")

        def counts() -> dict[str, int]:
            return fetch_report(socket, 1).counts

        wait_for(lambda: counts()["events"] >= turns, _START_SECONDS, f"{turns} events indexed")
        started = time.monotonic()
        if semantic:
            wait_for(
                lambda: (c := counts())["vectors"] >= turns and c["vectors_pending"] == 0,
                _EMBED_SECONDS,
                "the embedder's backlog",
            )
        yield time.monotonic() - started
    finally:
        stop_daemon(process)


def stop_daemon(process: subprocess.Popen[bytes]) -> None:
    """Stop a daemon this runner started: SIGTERM, then SIGKILL if it is still there after 30 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def rank_hits(hits: list[dict[str, Any]], gold: set[str]) -> int:
    """Position of the first gold session among the hits' distinct sessions (1-based; 0 when absent)."""
    seen: list[str] = []
    for hit in hits:
        sid = hit["session"]["id"]
        if sid not in seen:
            seen.append(sid)
            if sid in gold:
                return len(seen)
    return 0


def turn_rank(
    hits: list[dict[str, Any]], conversation: Conversation, numbers: dict[str, int], gold: frozenset[str]
) -> int:
    """Position of the first of the first ``TURN_DEPTH`` event hits that is an evidence turn (1-based; 0: none).

    Each dialog turn is one message stamped one minute after the previous one, so a hit's session and timestamp
    name its turn.
    """
    for position, hit in enumerate(hits[:TURN_DEPTH], start=1):
        number = numbers.get(hit["session"]["id"])
        stamp = hit["event"].get("timestamp")
        if number is None or not stamp:
            continue
        start = conversation.sessions[number][0]
        minute = round((datetime.fromisoformat(stamp.replace("Z", "+00:00")) - start).total_seconds() / 60)
        if conversation.turn_id(number, minute) in gold:
            return position
    return 0


async def _ask(
    home: Home, conversation: Conversation, questions: list[Question]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    params = StdioServerParameters(command=str(MORAINE), args=["mcp"], env=home.env, cwd=str(home.root))
    ids = {n: session_id(session_key("claude", conversation.session_uuid(n))) for n in conversation.sessions}
    numbers = {sid: n for n, sid in ids.items()}
    sessions, turns = [], []
    async with Client(params, read_timeout_seconds=120) as client:
        for q in questions:
            result = await client.call_tool("search_sessions", {"query": q.text, "n_hits": N_HITS})
            envelope = result.structured_content or {}
            if result.is_error or "data" not in envelope:
                raise RuntimeError(f"search_sessions failed for {q.text!r}: {envelope.get('error')}")
            hits = envelope["data"]["results"]
            sessions.append((q.category, rank_hits(hits, {ids[n] for n in q.gold if n in ids})))
            turns.append((q.category, turn_rank(hits, conversation, numbers, q.evidence)))
    return sessions, turns


def rank_conversation(path: Path, methods: Sequence[str], keep: Path | None = None) -> Ranks:
    """Index one conversation through the daemon and rank its questions by each method ("lexical", "hybrid")."""
    conversation = load_conversation(path)
    turns = sum(len(t) for _, t in conversation.sessions.values())
    root = (keep / conversation.name) if keep else Path(tempfile.mkdtemp(prefix="mlc", dir="/tmp"))
    home = Home(root)
    projects = root / ".claude" / "projects"
    if not projects.exists():
        write_transcripts(conversation, projects)
    ranks = Ranks()
    try:
        for method in methods:
            with _serving(home, method == "hybrid", turns) as embed_seconds:
                session_ranks, turn_ranks = anyio.run(_ask, home, conversation, conversation.questions)
                ranks.by_method[method], ranks.turns_by_method[method] = session_ranks, turn_ranks
                if method == "hybrid":
                    ranks.embed_seconds += embed_seconds
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return ranks


def category_names(ranks: Ranks) -> list[tuple[int | None, str]]:
    """The categories present (in LoCoMo's order), then the total."""
    present = {c for values in ranks.by_method.values() for c, _ in values}
    return [(c, name) for c, name in CATEGORIES.items() if c in present] + [(None, "all")]
