"""The harness registry: every ``Harness`` registered under the ``moraine.harnesses`` entry-point group.

Built-in harnesses register exactly as a third-party package does. Loading checks what two harnesses could
otherwise silently disagree on: harness names, source names and reader names are each unique.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from moraine.plugins import installed_entry_points
from moraine.harness_api.declaration import Harness

__all__ = ["GROUP", "HarnessRegistryError", "harness", "harnesses", "load_object"]

GROUP = "moraine.harnesses"


class HarnessRegistryError(Exception):
    """A registered harness is malformed or clashes with another; the message names both."""


@cache
def harnesses() -> dict[str, Harness]:
    """Return every registered harness by name, sorted by name.

    Raises:
        HarnessRegistryError: an entry point is not a ``Harness`` or two declare the same name, source or reader.
    """
    found: dict[str, Harness] = {}
    sources: dict[str, str] = {}
    readers: dict[str, str] = {}
    for point in installed_entry_points(GROUP):
        value = point.load()
        if not isinstance(value, Harness):
            raise HarnessRegistryError(f"entry point {point.name} = {point.value} is not a Harness")
        if value.name in found:
            raise HarnessRegistryError(f"two harnesses are named {value.name!r} ({point.value})")
        for location in value.locations:
            other = sources.setdefault(location.source, value.name)
            if other != value.name:
                raise HarnessRegistryError(
                    f"source {location.source!r} is declared by {other} and {value.name}"
                )
        for reader in value.readers:
            other = readers.setdefault(reader, value.name)
            if other != value.name:
                raise HarnessRegistryError(f"reader {reader!r} is declared by {other} and {value.name}")
        found[value.name] = value
    return dict(sorted(found.items()))


def harness(name: str) -> Harness | None:
    """Return the harness named ``name``, or None when none is registered."""
    return harnesses().get(name)


def load_object(target: str) -> Any:
    """Import ``"package.module:attr"`` and return the attribute."""
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)
