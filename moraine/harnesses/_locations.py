"""Locations of the harnesses that keep their traces in a dot-folder of the home directory.

Such a folder has the same path on Linux, macOS and Windows (``~`` is the user's profile folder there), so one
glob serves every platform.
"""

from __future__ import annotations

from moraine.harnesses.declaration import Location

__all__ = ["in_home"]


def in_home(source: str, glob: str, watch_root: str, reader: str = "jsonl") -> Location:
    """Return the location ``glob`` (under ``~``) of ``source`` on every platform, watched from ``watch_root``."""
    return Location(
        source=source,
        glob=glob,
        watch_root=watch_root,
        reader=reader,
        windows_glob=glob,
        windows_watch_root=watch_root,
    )
