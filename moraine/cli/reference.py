"""The CLI reference page (``docs/cli.md``), printed from the commands' own ``--help``.

``python -m moraine.cli.reference`` rewrites the page; ``--check`` prints a diff and exits 1 when it is stale
(CI runs it through ``tests/moraine/cli/test_reference.py``).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from moraine.cli import main

__all__ = ["PAGE", "render_reference"]

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
_WIDTH = 100  # fixed, so the page does not depend on the terminal it was generated in
_HEADER = """# Command-line reference

Generated from the commands' `--help` by `python -m moraine.cli.reference`; do not edit by hand.
Every command takes `--config PATH` (also `MORAINE_CONFIG`); `MORAINE_HOME` moves `~/.moraine`.
"""


def _help(command: click.Command, parent: click.Context | None, name: str) -> str:
    ctx = click.Context(
        command, info_name=name, parent=parent, terminal_width=_WIDTH, max_content_width=_WIDTH
    )
    return command.get_help(ctx)


def render_reference(group: click.Group = main) -> str:
    """Return the reference page: the group's help, then each visible command's, in name order."""
    settings = {**group.context_settings, "terminal_width": _WIDTH, "max_content_width": _WIDTH}
    root = click.Context(group, info_name="moraine", **settings)
    sections = [_HEADER, "## moraine\n", f"```text\n{group.get_help(root)}\n```\n"]
    for name in group.list_commands(root):
        command = group.get_command(root, name)
        if command is None or command.hidden:
            continue
        sections.append(f"## moraine {name}\n")
        sections.append(f"```text\n{_help(command, root, name)}\n```\n")
    return "\n".join(sections)


def _run(argv: list[str]) -> int:
    text = render_reference()
    if argv == ["--check"]:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current == text:
            return 0
        diff = difflib.unified_diff(
            current.splitlines(keepends=True), text.splitlines(keepends=True), str(PAGE), "generated"
        )
        sys.stdout.writelines(diff)
        print(f"\n{PAGE} is stale: run python -m moraine.cli.reference", file=sys.stderr)
        return 1
    if argv:
        print("usage: python -m moraine.cli.reference [--check]", file=sys.stderr)
        return 2
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(_run(sys.argv[1:]))
