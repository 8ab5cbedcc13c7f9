"""Locations shared by the harnesses that write under the user's home directory on every platform.

Many agents keep their history at the same place below ``~`` on Linux, macOS and Windows (``~/.forge``,
``~/.qclaw/agents``): ``in_home`` declares such a location once instead of repeating the glob per platform.
"""

from __future__ import annotations

from moraine.harness_api.declaration import Location

__all__ = ["in_home"]


def in_home(
    source: str, glob: str, watch_root: str, reader: str = "jsonl", *, windows: bool = True
) -> Location:
    """Return a location at ``glob`` under the home directory on Linux and macOS (and Windows with ``windows``)."""
    return Location(
        source=source,
        glob=glob,
        watch_root=watch_root,
        reader=reader,
        windows_glob=glob if windows else None,
        windows_watch_root=watch_root if windows else None,
    )
