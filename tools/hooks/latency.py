"""The prompt hook's latency end to end: ``moraine hook prompt`` as the agent runs it (Python's start included),
through a daemon serving a generated corpus (``tools.corpus``), timed from the process's start to its exit.

The store is ingested once (``tools.bench.ingest.run_ingest``) and kept under ``--home`` for the next run. The
daemon runs with semantic recall off: with it on, a fresh 200,000-record store spends its first hours embedding
its backlog beside the hooks (the hybrid figures on LoCoMo's stores are ``tools.hooks locomo``'s). The first hook
is timed right after the daemon's start (the state file says ready), then ``repeat`` prompts in turn, each with a
stored session's ID as the current session, so the lookup that excludes it is timed too.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.bench.home import bench_env, write_config
from tools.bench.ingest import run_ingest

__all__ = ["HookTimes", "ensure_store", "prompts", "time_hooks"]

MORAINE = Path(sys.executable).with_name("moraine")
_FILLER = ("why does", "fix the", "where did we change", "look at the", "what broke in")


@dataclass(frozen=True, slots=True)
class HookTimes:
    first_ms: float
    first_printed: bool
    times_ms: list[float]
    printed: int
    deadline_ms: int

    def percentile(self, share: float) -> float:
        ordered = sorted(self.times_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def ensure_store(home: Path, corpus: Path) -> dict[str, Any]:
    """Ingest ``corpus`` into ``home`` unless an earlier run did; return the corpus manifest."""
    manifest: dict[str, Any] = json.loads((corpus / "manifest.json").read_text())
    done = home / "ingested.json"
    if not done.exists():
        write_config(home, corpus, manifest)
        with (home / "config.toml").open("a") as config:
            config.write("\n[semantic]\nenabled = false\n[daemon]\nidle_exit_seconds = 0\n")
        run = run_ingest(home, int(manifest["events"]), int(manifest["bytes"]))
        done.write_text(json.dumps({"stored_events": run.stored_events, "seconds": run.ingest_seconds}))
    return manifest


def prompts(manifest: dict[str, Any], count: int) -> list[tuple[str, str]]:
    """(prompt, current session's native ID): prompts built from the corpus's multi-term queries, needles and
    common words, as a person would type them."""
    words = list(manifest["queries"]["multi"]) + [n["query"] for n in manifest["needles"] if n.get("query")]
    common = manifest["queries"]["common"]
    claude = [s["session_id"] for s in manifest["sessions"] if s["harness"] == "claude-code"]
    out = []
    for i in range(count):
        prompt = f"{_FILLER[i % len(_FILLER)]} {words[i % len(words)]} {common[i % len(common)]}?"
        out.append((prompt, claude[i % len(claude)]))
    return out


def _hook(env: dict[str, str], cwd: str, prompt: str, session: str) -> tuple[float, bool]:
    data = json.dumps(
        {"session_id": session, "cwd": cwd, "prompt": prompt, "hook_event_name": "UserPromptSubmit"}
    )
    started = time.perf_counter()
    done = subprocess.run(
        [str(MORAINE), "hook", "prompt", "--harness", "claude-code"],
        input=data.encode(),
        env=env,
        capture_output=True,
        check=True,
    )
    return (time.perf_counter() - started) * 1000, bool(done.stdout.strip())


def _ready(home: Path) -> bool:
    try:
        return bool(json.loads((home / "run" / "daemon.json").read_text())["ready"])
    except (OSError, ValueError, KeyError):
        return False


def time_hooks(home: Path, manifest: dict[str, Any], repeat: int, deadline_ms: int) -> HookTimes:
    """Start the daemon, time the first hook, then ``repeat`` more; stop the daemon."""
    env = bench_env(home)
    (home / "run" / "daemon.json").unlink(missing_ok=True)
    config = home / "config.toml"
    text = config.read_text().split("\n[hooks]\n")[0]
    config.write_text(text + f"\n[hooks]\ndeadline_ms = {deadline_ms}\n")
    asked = prompts(manifest, repeat + 1)
    cwd = str(home)
    with (home / "serve.out").open("ab") as out:
        daemon = subprocess.Popen([str(MORAINE), "serve"], env=env, stdout=out, stderr=out, cwd=cwd)
    try:
        while not _ready(home):  # the benchmark polls the state file; the first hook is timed right after
            if daemon.poll() is not None:
                raise RuntimeError(f"the daemon exited ({daemon.returncode}); see {home / 'serve.out'}")
            time.sleep(0.05)
        first_ms, first_printed = _hook(env, cwd, *asked[0])
        times, printed = [], 0
        for prompt, session in asked[1:]:
            ms, said = _hook(env, cwd, prompt, session)
            times.append(ms)
            printed += said
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(60)
    return HookTimes(first_ms, first_printed, times, printed, deadline_ms)
