"""The store's status as JSON, so ``moraine status`` and ``moraine doctor`` can ask a running daemon for it.

While the daemon runs it holds the chDB directory; other processes get the same report through its socket.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx2 as httpx

from moraine.config import SourceConfig
from moraine.daemon.client import DaemonUnreachable
from moraine.daemon.routes import STATUS_PATH
from moraine.daemon.found import FoundAgent, agents_found, sessions_by_source
from moraine.store.client import Store
from moraine.store.status import (
    IngestErrorRow,
    SourceCoverage,
    recent_errors,
    source_coverage,
    table_counts,
)

__all__ = ["StoreReport", "fetch_report", "report_via_daemon", "store_report"]


@dataclass(frozen=True, slots=True)
class StoreReport:
    counts: dict[str, int]
    coverage: dict[str, SourceCoverage]
    errors: list[IngestErrorRow]
    backfill: dict[str, Any] | None = None  # the daemon's backfill progress (``PassProgress.snapshot``)
    agents: list[FoundAgent] = field(default_factory=list)  # the agents found on this machine

    def to_json(self) -> dict[str, Any]:
        return {
            "agents": [agent.to_json() for agent in self.agents],
            "backfill": self.backfill,
            "counts": self.counts,
            "coverage": {
                name: {
                    "files": c.files,
                    "sessions": c.sessions,
                    "events": c.events,
                    "errors": c.errors,
                    "last_ingest": c.last_ingest.isoformat() if c.last_ingest else None,
                }
                for name, c in self.coverage.items()
            },
            "errors": [
                {
                    "at": e.at.isoformat(),
                    "source": e.source,
                    "path": e.path,
                    "line_no": e.line_no,
                    "reason": e.reason,
                    "detail": e.detail,
                }
                for e in self.errors
            ],
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> StoreReport:
        coverage = {
            name: SourceCoverage(
                name,
                int(c["files"]),
                int(c["sessions"]),
                int(c["events"]),
                int(c["errors"]),
                datetime.fromisoformat(c["last_ingest"]) if c["last_ingest"] else None,
            )
            for name, c in raw["coverage"].items()
        }
        errors = [
            IngestErrorRow(
                datetime.fromisoformat(e["at"]),
                e["source"],
                e["path"],
                int(e["line_no"]),
                e["reason"],
                e["detail"],
            )
            for e in raw["errors"]
        ]
        backfill = raw.get("backfill")
        return cls(
            {k: int(v) for k, v in raw["counts"].items()},
            coverage,
            errors,
            backfill if isinstance(backfill, dict) else None,
            [FoundAgent.from_json(agent) for agent in raw.get("agents", [])],
        )


def store_report(store: Store, error_limit: int, sources: Sequence[SourceConfig] = ()) -> StoreReport:
    """Read the report from ``store``; the agents found are those of ``sources`` whose location exists."""
    coverage = source_coverage(store)
    return StoreReport(
        table_counts(store),
        coverage,
        recent_errors(store, error_limit),
        agents=agents_found(sources, sessions_by_source(coverage)),
    )


def fetch_report(socket_path: Path, error_limit: int, timeout: float = 30.0) -> StoreReport:
    """Ask the daemon listening on ``socket_path`` for the report.

    Raises:
        DaemonUnreachable: it did not answer with a report.
    """
    try:
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(socket_path)), timeout=timeout) as client:
            response = client.get(f"http://moraine.daemon{STATUS_PATH}", params={"errors": error_limit})
            response.raise_for_status()
            return StoreReport.from_json(response.json())
    except (httpx.HTTPError, ValueError, KeyError, TypeError, OSError) as exc:
        raise DaemonUnreachable(f"the daemon on {socket_path} did not report its store: {exc}") from exc


def report_via_daemon(home: Path, error_limit: int) -> StoreReport | None:
    """Return the report from the daemon serving ``home``, or None when no daemon answers (open the store then)."""
    from moraine.daemon.launcher import live_state
    from moraine.daemon.paths import DaemonPaths

    state = live_state(DaemonPaths(home))
    if state is None:
        return None
    try:
        return fetch_report(Path(state.socket), error_limit)
    except DaemonUnreachable:
        return None
