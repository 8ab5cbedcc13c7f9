"""The baseline: ripgrep (or grep -r when rg is absent) over the raw trace files, for the same queries."""

from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tools.bench.stats import percentile

__all__ = ["Baseline", "grep_tool", "run_baseline"]


@dataclass(frozen=True, slots=True)
class Baseline:
    tool: str  # "rg" or "grep"
    p50_ms: float
    runs: int


def grep_tool() -> str:
    """Return ``rg`` when ripgrep is installed, else ``grep``."""
    return "rg" if shutil.which("rg") else "grep"


def _command(tool: str, terms: list[str], root: Path) -> list[str]:
    patterns = [arg for term in terms for arg in ("-e", term)]
    if tool == "rg":
        # Count matching lines per file: every byte is scanned, and the output stays small.
        return ["rg", "--count", "--fixed-strings", "--ignore-case", "--no-messages", *patterns, str(root)]
    return [
        "grep",
        "-r",
        "--count",
        "--fixed-strings",
        "--ignore-case",
        "--include=*.jsonl",
        *patterns,
        str(root),
    ]


def run_baseline(root: Path, queries: list[list[str]], repeat: int = 3) -> Baseline:
    """Time the grep tool over ``root`` for each query's terms (any term matches); return the median run."""
    tool = grep_tool()
    samples = []
    for terms in queries:
        command = _command(tool, terms, root)
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)  # page cache warm, as for the store
        for _ in range(repeat):
            started = time.perf_counter()
            done = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
            samples.append(time.perf_counter() - started)
            if done.returncode not in (0, 1):  # 1 = no match
                raise RuntimeError(f"{tool} failed with exit code {done.returncode}: {' '.join(command)}")
    return Baseline(tool, percentile([s * 1000 for s in samples], 50), len(samples))
