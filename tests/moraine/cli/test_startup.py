"""``moraine --version`` starts fast: it imports neither the command line nor Moraine's runtime, and building the
command line imports no command until one runs."""

from __future__ import annotations

import subprocess
import sys

HEAVY = (
    "click",
    "moraine.store",
    "moraine.ingest",
    "moraine.semantic",
    "handlers",
    "clickhouse_connect",
    "rich",
)


def _loaded_after(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.splitlines()


def test_version_imports_nothing_heavy_and_prints_the_version() -> None:
    loaded = _loaded_after(
        "import sys\nsys.argv = ['moraine', '--version']\nfrom moraine.entry import run\nrun()"
    )
    assert loaded[0].startswith("moraine ")
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_the_command_line_imports_a_command_only_when_it_runs() -> None:
    loaded = _loaded_after("import moraine.cli")
    assert [m for m in loaded if m.startswith(HEAVY[1:])] == []
    assert "moraine.cli.tool_commands" not in loaded and "moraine.cli.serve" not in loaded
