"""``python -m moraine.daemon [--spawned]``: how a relay starts the daemon (same as ``moraine serve``)."""

from __future__ import annotations

import sys

from moraine.private_files import restrict_process

restrict_process()  # umask 077 before anything is created (the CLI's group sets it too)

from moraine.cli import main  # noqa: E402 (after the umask: nothing this process creates is ever group/other-readable)

main(args=["serve", *sys.argv[1:]], prog_name="moraine")
