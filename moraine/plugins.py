"""Entry points (harnesses, MCP clients, the handler table) of installed distributions, never of the current folder.

``importlib.metadata.entry_points()`` reads the ``*.dist-info``/``*.egg-info`` folders of every ``sys.path`` entry.
A process started with ``python -m``/``-c`` has its current folder on that path (as ``''`` or as the folder's
absolute path), so a cloned repository holding ``evil-1.0.dist-info/entry_points.txt`` would register a harness, and
loading the registry would run the repository's code. Here the search path leaves out ``''``, relative entries
(they name whatever folder the process is in) and the current folder itself; a distribution found earlier on the path
hides a later one of the same name, as in ``entry_points()``.
"""

from __future__ import annotations

import os
import re
import site
import sys
from importlib.metadata import EntryPoint, distributions
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["installed_entry_points", "plugin_path", "registered"]


def plugin_path() -> list[str]:
    """Return the ``sys.path`` entries plugins are found in: absolute ones other than the current folder (unless
    that folder is a site-packages folder: Moraine run from inside one still finds itself)."""
    try:
        here: str | None = os.path.realpath(os.getcwd())
    except OSError:  # the current folder was removed: nothing can be found in it
        here = None
    if here is not None and here in _site_folders():
        here = None
    return [entry for entry in sys.path if os.path.isabs(entry) and os.path.realpath(entry) != here]


def _site_folders() -> set[str]:
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    return {os.path.realpath(folder) for folder in folders}


def installed_entry_points(group: str) -> list[EntryPoint]:
    """Return the entry points registered under ``group`` by the distributions on ``plugin_path()``."""
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for distribution in distributions(path=plugin_path()):
        name = re.sub(r"[-_.]+", "-", distribution.metadata["Name"] or "").lower()
        if name in seen:
            continue
        seen.add(name)
        found.extend(point for point in distribution.entry_points if point.group == group)
    return found


def registered(group: str, kind: type[T], name_of: Any = None) -> dict[str, T]:
    """Return the ``kind`` values registered under ``group`` by their ``name`` (or ``name_of(value)``), sorted.

    Raises:
        TypeError: an entry point is not a ``kind``.
        ValueError: two values share a name.
    """
    found: dict[str, T] = {}
    for point in installed_entry_points(group):
        value = point.load()
        if not isinstance(value, kind):
            raise TypeError(f"entry point {point.name} = {point.value} is not a {kind.__name__}")
        name = name_of(value) if name_of else value.name  # type: ignore[attr-defined]
        if name in found:
            raise ValueError(f"two {group} entries are named {name!r} ({point.value})")
        found[name] = value
    return dict(sorted(found.items()))
