"""The ``[daemon]`` table of the configuration: port, admission limits, start deadline, idle exit."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from moraine.config import Config
from moraine.errors import ConfigError

__all__ = ["DaemonSettings", "daemon_settings"]

_ALLOWED = {"port", "max_concurrent", "max_queued", "start_timeout_seconds", "idle_exit_seconds"}


@dataclass(frozen=True, slots=True)
class DaemonSettings:
    """``port`` 0 picks a free port; ``idle_exit_seconds`` applies to daemons a relay started (0 = never exit).

    ``max_concurrent`` defaults to the CPU count (at most 4): calls are CPU-bound, and more of them at once only
    slows the live ingest that shares the process. It bounds both the calls running and their statements (the read
    store has that many connections).
    """

    port: int = 0
    max_concurrent: int = field(default_factory=lambda: min(4, os.cpu_count() or 1))
    max_queued: int = 32
    start_timeout_seconds: float = 60.0
    idle_exit_seconds: float = 300.0


def daemon_settings(config: Config) -> DaemonSettings:
    """Return the daemon settings of ``config`` (defaults for what it does not set).

    Raises:
        ConfigError: the table has an unknown key or a value of the wrong type or range.
    """
    reader = config.reader()
    raw = reader.table(config.extra, "daemon", _ALLOWED)
    where = reader.where
    defaults = DaemonSettings()
    return DaemonSettings(
        port=_integer(raw, "port", defaults.port, 0, 65535, where),
        max_concurrent=_integer(raw, "max_concurrent", defaults.max_concurrent, 1, 1024, where),
        max_queued=_integer(raw, "max_queued", defaults.max_queued, 0, 100_000, where),
        start_timeout_seconds=reader.number(
            raw, "daemon.start_timeout_seconds", defaults.start_timeout_seconds
        ),
        idle_exit_seconds=reader.number(raw, "daemon.idle_exit_seconds", defaults.idle_exit_seconds),
    )


def _integer(raw: dict[str, Any], key: str, default: int, low: int, high: int, where: str) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{where}daemon.{key} must be an integer from {low} to {high} (got {value!r})")
    return value
