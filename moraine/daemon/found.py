"""Which agents are on this machine: the configured sources whose location exists, and those that yield nothing.

A source's location is its watch root (the folder its glob starts from). An agent is *found* when the location of
one of its sources exists; its session count is what the store holds from those sources. An enabled source is
*silent* when its files are there but no session was read from its folder (a changed format, or not ingested yet),
or when its folder exists but may not be listed; ``moraine doctor`` names it with its ingest errors.

A folder is a source's only when the source's glob matches files in it: VS Code's ``globalStorage`` holds every
extension's folder (Cline's tasks among them), not only Copilot's chat sessions, so its existence says nothing about
Copilot. And a folder is not silent when any source read sessions from it: sources that share a folder split its
files between them (Goose's JSONL files and ``sessions.db``, Copilot CLI's two layouts), and Cline's API histories
are read only where the task's ``ui_messages.json``, read by the sibling source, is missing.
"""

from __future__ import annotations

import os
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
    sources: Sequence[SourceConfig], coverage: Mapping[str, SourceCoverage], matched: Mapping[str, int]
) -> list[SourceConfig]:
    """Return the enabled sources that are silent (see the module docstring).

    ``matched`` is the number of files each source's glob matches (``moraine.ingest.discovery.discover``); a source
    it does not name matches none.
    """

    def sessions(source: SourceConfig) -> int:
        found = coverage.get(source.name)
        return found.sessions if found else 0

    read = {source.expanded_watch_root() for source in sources if sessions(source) > 0}
    return [
        source
        for source in sources
        if source.enabled
        and sessions(source) == 0
        and location_exists(source)
        and (
            not _listable(source)
            or (matched.get(source.name, 0) > 0 and source.expanded_watch_root() not in read)
        )
    ]


def _listable(source: SourceConfig) -> bool:
    """Return whether this process may list the source's folder (and so see whether its files are there)."""
    root = source.expanded_watch_root()
    return not root.is_dir() or os.access(root, os.R_OK | os.X_OK)
