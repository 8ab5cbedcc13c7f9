"""The ``moraine`` console script: ``moraine --version`` answers before the command line is even built.

Everything else goes to ``moraine.cli.main``, whose commands are themselves imported only when they run.
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
    from moraine.cli import main

    main()
