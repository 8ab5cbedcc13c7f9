"""Adapter and reader lookup: the harness registry (``moraine.harnesses``) names every adapter and reader.

A harness declares its adapter (``Harness.adapter``) and its readers (``Harness.readers``: reader name ->
``"module:Class"``) by import path; each class is instantiated with no arguments. The JSONL reader is built in.
Sources whose harness or reader has nothing importable are reported as "no adapter yet", never as a failure.
"""

from __future__ import annotations

import importlib
from typing import Any

from moraine.harness_api.adapter import Adapter
from moraine.harnesses.registry import harness, harnesses
from moraine.harness_api.reader import Reader

__all__ = ["JSONL_READER", "adapter_for", "has_adapter", "reader_for"]

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


def _load(target: str | None) -> type[Any] | None:
    if target is None:
        return None
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:  # the adapter module itself is absent: not written yet
            return None
        raise
    found = getattr(module, attr, None)
    return found if isinstance(found, type) else None


def has_adapter(harness: str) -> bool:
    """Return whether an adapter for ``harness`` is available."""
    return _load(_adapter_target(harness)) is not None


def adapter_for(harness: str) -> Adapter | None:
    """Return a fresh adapter for ``harness``, or None when none exists yet."""
    cls = _load(_adapter_target(harness))
    return cls() if cls is not None else None


def reader_for(format: str) -> Reader | None:
    """Return a reader for a source format, or None when none exists yet."""
    cls = _load(_reader_target(format))
    return cls() if cls is not None else None
