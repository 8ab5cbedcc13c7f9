"""The ``[daemon]`` table of the configuration: port, admission limits, start deadline, idle exit."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from moraine.access.connections import HEADER_SECONDS, MAX_UNPROVEN
from moraine.config import Config

__all__ = ["DaemonSettings", "daemon_settings"]

_ALLOWED = {
    "port",
    "max_concurrent",
    "max_queued",
    "start_timeout_seconds",
    "idle_exit_seconds",
    "header_timeout_seconds",
    "max_unauthenticated_connections",
}


@dataclass(frozen=True, slots=True)
class DaemonSettings:
    """``port`` 0 picks a free port; ``idle_exit_seconds`` applies to daemons a relay started (0 = never exit).

    ``max_concurrent`` defaults to the CPU count (at most 4): calls are CPU-bound, and more of them at once only
    slows the live ingest that shares the process. It bounds both the calls running and their statements (the read
    store has that many connections).

    ``header_timeout_seconds`` closes a connection that has not completed a request's headers in time;
    ``max_unauthenticated_connections`` caps, per listener, the TCP connections that have not yet shown the secret
    (``moraine.access.connections``).
    """

    port: int = 0
    max_concurrent: int = field(default_factory=lambda: min(4, os.cpu_count() or 1))
    max_queued: int = 32
    start_timeout_seconds: float = 60.0
    idle_exit_seconds: float = 300.0
    header_timeout_seconds: float = HEADER_SECONDS
    max_unauthenticated_connections: int = MAX_UNPROVEN


def daemon_settings(config: Config) -> DaemonSettings:
    """Return the daemon settings of ``config`` (defaults for what it does not set).

    Raises:
        ConfigError: the table has an unknown key or a value of the wrong type or range.
    """
    reader = config.reader()
    raw = reader.table(config.extra, "daemon", _ALLOWED)
    defaults = DaemonSettings()
    return DaemonSettings(
        port=reader.integer(raw, "daemon.port", defaults.port, 0, 65535),
        max_concurrent=reader.integer(raw, "daemon.max_concurrent", defaults.max_concurrent, 1, 1024),
        max_queued=reader.integer(raw, "daemon.max_queued", defaults.max_queued, 0, 100_000),
        start_timeout_seconds=reader.number(
            raw, "daemon.start_timeout_seconds", defaults.start_timeout_seconds
        ),
        idle_exit_seconds=reader.number(raw, "daemon.idle_exit_seconds", defaults.idle_exit_seconds),
        header_timeout_seconds=reader.number(
            raw, "daemon.header_timeout_seconds", defaults.header_timeout_seconds
        ),
        max_unauthenticated_connections=reader.integer(
            raw,
            "daemon.max_unauthenticated_connections",
            defaults.max_unauthenticated_connections,
            1,
            100_000,
        ),
    )
