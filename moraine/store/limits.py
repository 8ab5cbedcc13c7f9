"""What one statement may take from the machine: ClickHouse settings applied to every statement of a store.

There is no time limit: the contract forbids a default deadline (work ends by completion, cancellation, disconnect
or shutdown). Instead each statement has a memory ceiling, so one call cannot take the machine's memory; ClickHouse
spills sorts and aggregations to disk (under the store's ``tmp/``) once they pass half of it, and the spilled bytes
have their own ceiling. A breach fails only that statement, and the caller gets ``resource_exhausted``.
CPU is bounded by admission (``[daemon] max_concurrent`` calls at once), not here.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_MAX_MEMORY_USAGE", "DEFAULT_MAX_TEMPORARY_DISK", "StatementLimits"]

# Generous for legitimate work: at 1,000,000 records the whole ingest process peaks near 1 GB, and one search
# statement reads at most a few hundred thousand postings rows.
DEFAULT_MAX_MEMORY_USAGE = 4 * 1024**3
DEFAULT_MAX_TEMPORARY_DISK = 16 * 1024**3


@dataclass(frozen=True, slots=True)
class StatementLimits:
    """Per-statement ceilings in bytes: memory, and data spilled to disk (0: not set here, the server's own applies)."""

    max_memory_usage: int = DEFAULT_MAX_MEMORY_USAGE
    max_temporary_disk: int = DEFAULT_MAX_TEMPORARY_DISK

    def settings(self) -> dict[str, int]:
        """Return the ClickHouse settings that apply these limits (a limit of 0 is left out)."""
        settings = {
            "max_memory_usage": self.max_memory_usage,
            "max_temporary_data_on_disk_size_for_query": self.max_temporary_disk,
        }
        return {name: value for name, value in settings.items() if value > 0}
