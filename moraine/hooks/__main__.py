"""``python -m moraine.hooks``: bring the daemon up for the next hook (a hook that found none starts this detached).

The same race-free start as every other client (``moraine.daemon.launcher.ensure_daemon``); a failure lands in the
daemon's log, which the launcher quotes, and nowhere the agent sees.
"""

from __future__ import annotations

import os
from pathlib import Path

from moraine.private_files import restrict_process

restrict_process()  # umask 077 before anything is created

from moraine.config import load_config  # noqa: E402 (after the umask)
from moraine.daemon.launcher import DaemonStartError, ensure_daemon  # noqa: E402
from moraine.daemon.paths import DaemonPaths  # noqa: E402
from moraine.daemon.settings import daemon_settings  # noqa: E402
from moraine.errors import ConfigError  # noqa: E402

try:
    raw = os.environ.get("MORAINE_CONFIG")
    config = load_config(Path(raw) if raw else None)
    ensure_daemon(DaemonPaths(config.home), daemon_settings(config).start_timeout_seconds, None)
except (ConfigError, DaemonStartError, OSError):
    pass  # the next hook finds no daemon and tries again; `moraine doctor` says why
