"""The ``moraine`` command line: a thin layer that parses, builds ``Config``, calls one library function, renders.

Each command lives in its own module and is registered below.
"""

from __future__ import annotations

import click

from moraine.daemon.logmask import mask_credentials
from moraine.daemon.version import moraine_version
from moraine.private_files import restrict_process

__all__ = ["main"]


class _MaskingGroup(click.Group):
    """The command group: an error any command reports is printed with credentials masked (a DSN's password)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            exc.message = mask_credentials(exc.message)
            raise


@click.group(cls=_MaskingGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(moraine_version(), "--version", prog_name="moraine", message="%(prog)s %(version)s")
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
    restrict_process()  # umask 077 before any command creates a file: $MORAINE_HOME is user-only from the start
    ctx.obj = {"config_path": config_path}


from moraine.cli.doctor import doctor  # noqa: E402 (commands register after the group exists)
from moraine.cli.forget import forget  # noqa: E402 (commands register after the group exists)
from moraine.cli.ingest import ingest  # noqa: E402 (commands register after the group exists)
from moraine.cli.mcp import mcp  # noqa: E402 (commands register after the group exists)
from moraine.cli.serve import serve  # noqa: E402 (commands register after the group exists)
from moraine.cli.setup import setup  # noqa: E402 (commands register after the group exists)
from moraine.cli.status import status  # noqa: E402 (commands register after the group exists)
from moraine.cli.tools import (  # noqa: E402 (commands register after the group exists)
    export,
    files,
    open_command,
    search,
    sessions,
)
from moraine.cli.web import web  # noqa: E402 (commands register after the group exists)

main.add_command(doctor)
main.add_command(forget)
main.add_command(ingest)
main.add_command(mcp)
main.add_command(serve)
main.add_command(setup)
main.add_command(status)
for _command in (search, open_command, sessions, files, export):
    main.add_command(_command)
main.add_command(web)
