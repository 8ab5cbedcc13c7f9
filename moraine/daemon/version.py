"""The installed Moraine version (reported by the daemon, its state file and the relay)."""

from __future__ import annotations

from importlib import metadata

__all__ = ["moraine_version"]


def moraine_version() -> str:
    """Return the installed package version ("0" when running from an uninstalled tree)."""
    try:
        return metadata.version("moraine")
    except metadata.PackageNotFoundError:
        return "0"
