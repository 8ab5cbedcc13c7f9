"""Which agents are on this machine: the configured sources whose location exists, and those that yield nothing.

A source's location is its watch root (the folder its glob starts from). An agent is *found* when the location of
one of its sources exists; its session count is what the store holds from those sources. A found, enabled source
that holds no session is *silent*: its folder is there but nothing was read from it (a changed format, a folder it
may not read, or not ingested yet); ``moraine doctor`` names it with its ingest errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moraine.config import SourceConfig
from moraine.harnesses.registry import harness as registered
from moraine.store.status import SourceCoverage

__all__ = ["FoundAgent", "agents_found", "location_exists", "sessions_by_source", "silent_sources"]


@dataclass(frozen=True, slots=True)
class FoundAgent:
    """One agent found on this machine: its sources whose location exists, and the sessions read from them."""

    harness: str
    display_name: str
    sources: tuple[str, ...]
    locations: tuple[str, ...]  # the existing locations, as configured (``~`` unexpanded)
    sessions: int
    enabled: bool  # at least one of those sources is enabled

    def to_json(self) -> dict[str, Any]:
        return {
            "harness": self.harness,
            "display_name": self.display_name,
            "sources": list(self.sources),
            "locations": list(self.locations),
            "sessions": self.sessions,
            "enabled": self.enabled,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> FoundAgent:
        return cls(
            str(raw["harness"]),
            str(raw["display_name"]),
            tuple(str(s) for s in raw["sources"]),
            tuple(str(s) for s in raw["locations"]),
            int(raw["sessions"]),
            bool(raw["enabled"]),
        )


def location_exists(source: SourceConfig) -> bool:
    """Return whether the folder ``source`` watches exists (a folder we may not list still exists)."""
    try:
        return source.expanded_watch_root().exists()
    except OSError:
        return False


def sessions_by_source(coverage: Mapping[str, SourceCoverage]) -> dict[str, int]:
    """Return the session count of each source in ``coverage``."""
    return {name: c.sessions for name, c in coverage.items()}


def agents_found(sources: Iterable[SourceConfig], sessions: Mapping[str, int]) -> list[FoundAgent]:
    """Return the agents with at least one source whose location exists, by display name.

    ``sessions`` is the store's session count per source (``moraine.store.status.session_counts``).
    """
    by_harness: dict[str, list[SourceConfig]] = {}
    for source in sources:
        if location_exists(source):
            by_harness.setdefault(source.harness, []).append(source)
    found = []
    for name, present in by_harness.items():
        declared = registered(name)
        found.append(
            FoundAgent(
                harness=name,
                display_name=declared.display_name if declared else name,
                sources=tuple(s.name for s in present),
                locations=tuple(dict.fromkeys(s.watch_root for s in present)),
                sessions=sum(sessions.get(s.name, 0) for s in present),
                enabled=any(s.enabled for s in present),
            )
        )
    return sorted(found, key=lambda agent: agent.display_name.lower())


def silent_sources(
    sources: Sequence[SourceConfig], coverage: Mapping[str, SourceCoverage]
) -> list[SourceConfig]:
    """Return the enabled sources whose location exists but from which the store holds no session."""
    return [
        source
        for source in sources
        if source.enabled
        and location_exists(source)
        and (source.name not in coverage or coverage[source.name].sessions == 0)
    ]
