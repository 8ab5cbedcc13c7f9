"""The README is a user guide: short, its two commands the ones CI runs, every docs/ link alive."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    return [line.strip() for line in README.splitlines() if line.startswith("    python3 -m venv .venv")]


def test_the_readme_is_a_guide_under_250_lines_that_names_the_python_it_needs() -> None:
    assert len(README.splitlines()) < 250
    assert "Python 3.11" in README
    for heading in (
        "## Using it from your agents",
        "## From the terminal",
        "## The web page",
        "## Configuration",
    ):
        assert heading in README
    assert (
        "Ctrl-C" in README and "systemd" in README
    )  # serve stays in the foreground: how to stop it, run at login


def test_its_first_command_serves_and_its_second_is_exactly_what_ci_runs() -> None:
    first, second = _commands()
    assert first.endswith("moraine serve")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert second in ci


def test_every_docs_link_of_the_readme_exists_and_the_figures_live_in_docs_performance() -> None:
    links = set(re.findall(r"\]\((docs/[^)#]+)\)", README))
    assert "docs/performance.md" in links
    missing = {link for link in links if not (ROOT / link).exists()}
    assert not missing
    assert not re.search(r"\d{4}-\d{2}-\d{2}, (later|last|final)", README)  # no dated benchmark runs
    performance = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert "## 1,000,000 records" in performance and "## 100,000 records" in performance
    assert "python -m tools.bench" in performance
