"""The ``moraine`` command line: a thin layer that parses, builds ``Config``, calls one library function, renders.

Each command lives in its own module, imported only when that command runs (or when ``--help`` lists them all):
``moraine --version`` imports click and nothing of Moraine's runtime (the store, the handlers, ingest).
"""

from __future__ import annotations

import click

__all__ = ["main"]

# Command name -> "module:attribute" of its click command, in the order --help lists them.
COMMANDS = {
    "doctor": "moraine.cli.doctor:doctor",
    "export": "moraine.cli.tool_commands:export",
    "files": "moraine.cli.tool_commands:files",
    "forget": "moraine.cli.forget:forget",
    "hook": "moraine.cli.hook:hook",
    "import": "moraine.cli.imports:import_command",
    "ingest": "moraine.cli.ingest:ingest",
    "mcp": "moraine.cli.mcp:mcp",
    "open": "moraine.cli.tool_commands:open_command",
    "search": "moraine.cli.tool_commands:search",
    "serve": "moraine.cli.serve:serve",
    "sessions": "moraine.cli.tool_commands:sessions",
    "setup": "moraine.cli.setup:setup",
    "status": "moraine.cli.status:status",
    "usage": "moraine.cli.usage:usage",
    "web": "moraine.cli.web:web",
}


class _LazyGroup(click.Group):
    """The command group: commands are imported when first asked for, and an error any command reports is printed
    with credentials masked (a DSN's password)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            from moraine.daemon.logmask import mask_credentials

            # click types ``message`` as final; the exception is ours to reword before click prints it
            setattr(exc, "message", mask_credentials(exc.message))  # noqa: B010 (see the line above)
            raise

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        from importlib import import_module

        module, attribute = target.split(":")
        command: click.Command = getattr(import_module(module), attribute)
        return command


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from moraine.daemon.version import moraine_version

    click.echo(f"moraine {moraine_version()}")
    ctx.exit()


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    envvar="MORAINE_CONFIG",
    default=None,
    help="Config file (default: $MORAINE_HOME/config.toml, MORAINE_HOME defaults to ~/.moraine).",
)
@click.pass_context
def main(ctx: click.Context, config_path: str | None) -> None:
    """Index coding-agent session traces and serve them to agents over MCP."""
    from moraine.private_files import restrict_process

    restrict_process()  # umask 077 before any command creates a file: $MORAINE_HOME is user-only from the start
    ctx.obj = {"config_path": config_path}
