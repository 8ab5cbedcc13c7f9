"""The ``[mcp]`` table of the configuration: ``project_only`` makes every ``moraine mcp`` a project-only server."""

from __future__ import annotations

from moraine.config import Config
from moraine.errors import ConfigError

__all__ = ["project_only_configured"]

_ALLOWED = {"project_only"}


def project_only_configured(config: Config) -> bool:
    """Return ``mcp.project_only`` (default false).

    Raises:
        ConfigError: the table is not a table, has an unknown key, or the value is not a boolean.
    """
    where = f"{config.path}: " if config.path else ""
    raw = config.extra.get("mcp", {})
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}mcp must be a table ([mcp])")
    unknown = sorted(set(raw) - _ALLOWED)
    if unknown:
        raise ConfigError(
            f"{where}mcp.{unknown[0]} is not a known setting (known: {', '.join(sorted(_ALLOWED))})"
        )
    value = raw.get("project_only", False)
    if not isinstance(value, bool):
        raise ConfigError(f"{where}mcp.project_only must be true or false (got {value!r})")
    return value
