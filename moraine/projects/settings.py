"""The ``[mcp]`` table of the configuration: ``project_only`` makes every ``moraine mcp`` a project-only server."""

from __future__ import annotations

from moraine.config import Config

__all__ = ["project_only_configured"]

_ALLOWED = {"project_only"}


def project_only_configured(config: Config) -> bool:
    """Return ``mcp.project_only`` (default false).

    Raises:
        ConfigError: the table is not a table, has an unknown key, or the value is not a boolean.
    """
    reader = config.reader()
    raw = reader.table(config.extra, "mcp", _ALLOWED)
    return reader.boolean(raw, "mcp.project_only", False)
