"""The ``[hooks]`` table of the configuration: the deadline, the token budget and the confidence gate.

``deadline_ms`` is also read by the hook process itself (``moraine.hooks.run``, which cannot afford this module's
imports); a value out of range there falls back to the default, and here it is reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from moraine.config import Config, TableReader
from moraine.errors import ConfigError
from moraine.hooks.run import DEFAULT_DEADLINE_MS
from moraine.projects.settings import project_only_configured

__all__ = ["HookSettings", "hook_settings"]

_ALLOWED = {"deadline_ms", "budget_tokens", "min_coverage", "min_margin", "max_hits", "recent_sessions"}


@dataclass(frozen=True, slots=True)
class HookSettings:
    """What the hooks print and when.

    ``budget_tokens``: everything one hook prints, estimated at four characters a token. ``min_coverage``: the
    share of the prompt's terms the best hit must hold; ``min_margin``: how far (on the page's [0, 1] scale) the
    best hit must lead the best hit of any other session. Both were chosen on the LoCoMo table (docs/ranking.md,
    "Hooks"). ``max_hits``: excerpts a prompt is given at most; ``recent_sessions``: sessions a session start lists.
    """

    deadline_ms: int = DEFAULT_DEADLINE_MS
    budget_tokens: int = 1000
    min_coverage: float = 0.7
    min_margin: float = 0.05
    max_hits: int = 5
    recent_sessions: int = 3
    project_only: bool = False  # ``[mcp] project_only``: every prompt hook searches its own project only


def hook_settings(config: Config) -> HookSettings:
    """Return the hook settings of ``config`` (defaults for what it does not set).

    Raises:
        ConfigError: the table has an unknown key or a value of the wrong type or range.
    """
    reader = config.reader()
    raw = reader.table(config.extra, "hooks", _ALLOWED)
    defaults = HookSettings()
    return HookSettings(
        deadline_ms=reader.integer(raw, "hooks.deadline_ms", defaults.deadline_ms, 1, 60_000),
        budget_tokens=reader.integer(raw, "hooks.budget_tokens", defaults.budget_tokens, 50, 100_000),
        min_coverage=_share(reader, raw, "min_coverage", defaults.min_coverage),
        min_margin=_share(reader, raw, "min_margin", defaults.min_margin),
        max_hits=reader.integer(raw, "hooks.max_hits", defaults.max_hits, 1, 20),
        recent_sessions=reader.integer(raw, "hooks.recent_sessions", defaults.recent_sessions, 0, 20),
        project_only=project_only_configured(config),
    )


def _share(reader: TableReader, raw: dict[str, Any], key: str, default: float) -> float:
    value = reader.number(raw, f"hooks.{key}", default)
    if value > 1.0:
        raise ConfigError(f"{reader.where}hooks.{key} must be a share from 0 to 1 (got {value})")
    return value
