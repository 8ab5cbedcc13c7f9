"""The ``moraine`` console script: ``moraine --version`` answers before the command line is even built.

``moraine hook EVENT ...`` (an agent's hook: its start-up is the agent's wait) runs ``moraine.hooks.run``, which
imports the standard library only. Everything else goes to ``moraine.cli.main``, whose commands are themselves imported only when they run.
"""

from __future__ import annotations

import sys

__all__ = ["run"]


def run() -> None:
    """Run the ``moraine`` command."""
    if sys.argv[1:] == ["--version"]:
        from moraine.daemon.version import moraine_version

        sys.stdout.write(f"moraine {moraine_version()}\n")
        return
    if sys.argv[1:2] == ["hook"] and not {"-h", "--help"} & set(sys.argv[2:]):
        from moraine.hooks.run import main as hook

        hook(sys.argv[2:])
        return
    from moraine.cli import main

    main()
