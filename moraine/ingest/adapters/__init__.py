"""Adapter and reader lookup: the harness registry (``moraine.harnesses``) names every adapter and reader.

A harness declares its adapter (``Harness.adapter``) and its readers (``Harness.readers``: reader name ->
``"module:Class"``) by import path; each class is instantiated with no arguments. The JSONL reader is built in.
A source whose harness is not installed (no declaration of that name) has no adapter yet; a declared adapter or
reader that cannot be loaded (its module missing or failing to import, its class absent) is a broken harness, a
``HarnessLoadError`` that says which and why: ingest records it as the source's error and reads the other
sources, ``moraine status`` and ``moraine doctor`` show it.
"""

from __future__ import annotations

import importlib
from typing import Any

from moraine.errors import ConfigError
from moraine.harness_api.adapter import Adapter
from moraine.harnesses.registry import harness, harnesses
from moraine.harness_api.reader import Reader

__all__ = [
    "JSONL_READER",
    "HarnessLoadError",
    "adapter_for",
    "has_adapter",
    "load_problem",
    "reader_for",
    "revision_for",
]

JSONL_READER = "moraine.harnesses._shared.jsonl:JsonlReader"


def _reader_target(name: str) -> str | None:
    """Return where the reader called ``name`` is: built in (``jsonl``) or declared by some harness."""
    if name == "jsonl":
        return JSONL_READER
    for candidate in harnesses().values():
        if name in candidate.readers:
            return candidate.readers[name]
    return None


def _adapter_target(name: str) -> str | None:
    declared = harness(name)
    return declared.adapter if declared is not None else None


class HarnessLoadError(ConfigError):
    """A harness declares an adapter or reader that cannot be loaded (a broken plugin or install)."""


def _load(target: str | None) -> type[Any] | None:
    """The class ``target`` ("module:Class") names; None when nothing is declared; ``HarnessLoadError`` otherwise."""
    if target is None:
        return None
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except (
        Exception
    ) as exc:  # a plugin's import may fail in any way: say which and why, never pass it off as absent
        raise HarnessLoadError(f"{target} cannot be imported ({type(exc).__name__}: {exc})") from exc
    found = getattr(module, attr, None)
    if not isinstance(found, type):
        raise HarnessLoadError(f"{target} names no class in {module_name}")
    return found


def load_problem(harness: str, format: str) -> str | None:
    """Why the adapter of ``harness`` or the reader of ``format`` cannot be loaded, or None when both can (or are
    simply not declared: see ``has_adapter``)."""
    try:
        _load(_adapter_target(harness))
        _load(_reader_target(format))
    except HarnessLoadError as exc:
        return str(exc)
    return None


def has_adapter(harness: str) -> bool:
    """Return whether an adapter for ``harness`` is available (``HarnessLoadError`` when it is declared but broken)."""
    return _load(_adapter_target(harness)) is not None


def adapter_for(harness: str) -> Adapter | None:
    """Return a fresh adapter for ``harness``, or None when none is declared (``HarnessLoadError``: broken)."""
    cls = _load(_adapter_target(harness))
    return cls() if cls is not None else None


def reader_for(format: str) -> Reader | None:
    """Return a reader for a source format, or None when none is declared (``HarnessLoadError``: broken)."""
    cls = _load(_reader_target(format))
    return cls() if cls is not None else None


def revision_for(name: str) -> int:
    """Return the revision of the adapter of the harness ``name`` (``Harness.revision``; 1 when not registered)."""
    declared = harness(name)
    return declared.revision if declared is not None else 1
