"""``moraine hook EVENT``: what an agent's hook runs (``moraine.hooks.run``; ``moraine setup --hooks`` writes it).

``moraine.entry`` runs the hook before click is even imported (start-up time is the agent's wait); this command is
the same run for ``--help``, the reference and a ``python -m moraine.cli`` caller.
"""

from __future__ import annotations

import click

from moraine.hooks.run import EVENTS, format_error

__all__ = ["hook"]


def _format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if problem := format_error(value):
        raise click.BadParameter(problem)
    return value


@click.command("hook")
@click.argument("event", type=click.Choice(EVENTS))
@click.option(
    "--harness",
    default=None,
    help="The agent running the hook (e.g. claude-code): its session ID in the input is looked up there.",
)
@click.option(
    "--format",
    "output",
    default="json",
    show_default=True,
    callback=_format,
    help='json: {"hookSpecificOutput": {"hookEventName", "additionalContext"}}; text: the context as is; a JSON '
    "object: that object with the context in place of its one null (Cursor: '{\"additional_context\":null}').",
)
@click.option("--project-only", is_flag=True, help="Search only the working folder's project.")
@click.pass_context
def hook(ctx: click.Context, event: str, harness: str | None, output: str, project_only: bool) -> None:
    """Print added context for an agent's hook: reads the hook's JSON (session_id, cwd, prompt) on stdin.

    EVENT is session-start (this project's recent sessions), prompt (the best hits from other sessions, only when
    the ranking is confident) or compact (what this session was about before a compaction). Prints nothing when the
    daemon is not running (it is started for the next hook) or past [hooks] deadline_ms; always exits 0.
    """
    import os

    from moraine.hooks.run import main

    config_path = ctx.obj.get("config_path") if ctx.obj else None
    if config_path:
        os.environ["MORAINE_CONFIG"] = config_path  # where the run reads [hooks] deadline_ms
    argv = [event, "--format", output] + (["--harness", harness] if harness else [])
    main(argv + (["--project-only"] if project_only else []))
