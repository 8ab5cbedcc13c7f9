"""The CLI reference page (``docs/cli.md``) matches the commands' help, and every command documents itself."""

from __future__ import annotations

import click

from moraine.cli import main
from moraine.cli.reference import PAGE, render_reference


def test_the_checked_in_reference_page_is_what_the_commands_generate() -> None:
    assert PAGE.read_text(encoding="utf-8") == render_reference(), (
        "docs/cli.md is stale: run python -m moraine.cli.reference"
    )


def test_every_visible_command_has_help_and_a_section_on_the_page() -> None:
    page = PAGE.read_text(encoding="utf-8")
    ctx = click.Context(main, info_name="moraine")
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        assert command is not None
        if command.hidden:
            continue
        assert command.help and command.help.strip(), f"moraine {name} has no help"
        assert f"## moraine {name}\n" in page
    for name in ("search", "open", "sessions", "files", "export"):
        assert f"Usage: moraine {name} " in page
