"""``python -m moraine.daemon [--spawned]``: how a relay starts the daemon (same as ``moraine serve``)."""

from __future__ import annotations

import sys

from moraine.cli import main

main(args=["serve", *sys.argv[1:]], prog_name="moraine")
