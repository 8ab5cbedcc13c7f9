"""The registries: harness -> adapter class, and source format -> reader class, named by import path.

To add a harness, add one line to ``_ADAPTERS`` (``"harness": "moraine.ingest.adapters.<module>:<Class>"``); the
class is instantiated with no arguments and must satisfy ``moraine.ingest.adapters.base.Adapter``. A source format
other than JSONL needs one line in ``_READERS`` (a class satisfying ``moraine.ingest.reader.Reader``, instantiated
with no arguments). Sources whose harness or format has nothing importable are reported as "no adapter yet", never
as a failure.
"""

from __future__ import annotations

import importlib

from typing import Any

from moraine.harnesses.registry import harness, harnesses
from moraine.ingest.adapters.base import Adapter
from moraine.ingest.reader import Reader

__all__ = ["adapter_for", "has_adapter", "reader_for"]

_ADAPTERS: dict[str, str] = {
    "codex": "moraine.ingest.adapters.codex:CodexAdapter",
    "claude-code": "moraine.ingest.adapters.claude_code:ClaudeCodeAdapter",
    "cursor": "moraine.ingest.adapters.cursor:CursorAdapter",
    "hermes": "moraine.ingest.adapters.hermes:HermesAdapter",
    "kimi-cli": "moraine.ingest.adapters.kimi:KimiAdapter",
    "kiro-cli": "moraine.ingest.adapters.kiro:KiroAdapter",
    "nac": "moraine.ingest.adapters.nac:NacAdapter",
    "opencode": "moraine.ingest.adapters.opencode:OpenCodeAdapter",
    "pi-coding-agent": "moraine.ingest.adapters.pi:PiAdapter",
    "prime-agent": "moraine.ingest.adapters.prime_agent:PrimeAgentAdapter",
    "qwen-code": "moraine.ingest.adapters.qwen:QwenAdapter",
}
_READERS: dict[str, str] = {
    "jsonl": "moraine.ingest.jsonl:JsonlReader",
    "session_json": "moraine.ingest.readers.hermes_json:HermesSessionReader",
    "cursor_sqlite": "moraine.ingest.readers.sqlite_cursor:CursorSqliteReader",
    "opencode_sqlite": "moraine.ingest.readers.sqlite_opencode:OpenCodeReader",
    "nac_sqlite": "moraine.ingest.readers.sqlite_nac:NacReader",
}


def _registered(table: dict[str, str], name: str) -> str | None:
    """Return where the registry says ``name``'s adapter (or reader) is, for the harnesses it declares."""
    if table is _ADAPTERS:
        declared = harness(name)
        return declared.adapter if declared is not None else None
    for candidate in harnesses().values():
        if name in candidate.readers:
            return candidate.readers[name]
    return None


def _load(table: dict[str, str], name: str) -> type[Any] | None:
    target = table.get(name) or _registered(table, name)
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
    return _load(_ADAPTERS, harness) is not None


def adapter_for(harness: str) -> Adapter | None:
    """Return a fresh adapter for ``harness``, or None when none exists yet."""
    cls = _load(_ADAPTERS, harness)
    return cls() if cls is not None else None


def reader_for(format: str) -> Reader | None:
    """Return a reader for a source format, or None when none exists yet."""
    cls = _load(_READERS, format)
    return cls() if cls is not None else None
