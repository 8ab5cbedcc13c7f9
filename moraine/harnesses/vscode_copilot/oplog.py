"""Replay VS Code's chat session operation log (``chatSessions/<id>.jsonl``) into the session object it describes.

Newer VS Code versions append a session's changes instead of rewriting a snapshot. Each line is one operation:
``{kind: 0, v}`` the whole state (the first line; a later one replaces the state), ``{kind: 1, k: [path], v}`` set
the value at a path of object keys and array indices, ``{kind: 2, k, v: [items], i?}`` append items to the array at
the path (cut back to length ``i`` first when ``i`` is given), ``{kind: 3, k}`` delete the value at the path. A line
that is not JSON, a path that leads nowhere or an unknown kind changes nothing; how many such lines there were is
returned beside the state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

__all__ = ["replay"]

_SET, _PUSH, _DELETE = 1, 2, 3


def replay(lines: Iterable[bytes]) -> tuple[Any, int]:
    """Return the state the operation ``lines`` build (None before any ``kind: 0``) and the count of skipped lines."""
    state: Any = None
    skipped = 0
    for raw in lines:
        if not raw.strip():
            continue
        try:
            operation = json.loads(raw)
        except ValueError:
            skipped += 1
            continue
        if not isinstance(operation, dict):
            skipped += 1
            continue
        kind = operation.get("kind")
        if kind == 0:
            state = operation.get("v")
        elif state is None or not _apply(state, kind, operation):
            skipped += 1
    return state, skipped


def _apply(state: Any, kind: Any, operation: dict[str, Any]) -> bool:
    path = operation.get("k")
    if not isinstance(path, list) or not path:
        return False
    if kind == _PUSH:
        target = _walk(state, path)
        items = operation.get("v", [])
        if not isinstance(target, list) or not isinstance(items, list):
            return False
        start = operation.get("i")
        if isinstance(start, int) and not isinstance(start, bool):
            del target[max(start, 0) :]
        target.extend(items)
        return True
    parent = _walk(state, path[:-1])
    key = path[-1]
    if isinstance(parent, dict) and isinstance(key, str):
        if kind == _SET:
            parent[key] = operation.get("v")
            return True
        if kind == _DELETE:
            parent.pop(key, None)
            return True
    if isinstance(parent, list) and _index(parent, key) is not None:
        if kind == _SET:
            parent[key] = operation.get("v")
            return True
        if kind == _DELETE:
            del parent[key]
            return True
    return False


def _walk(node: Any, path: list[Any]) -> Any:
    for key in path:
        if isinstance(node, dict) and isinstance(key, str):
            node = node.get(key)
        elif isinstance(node, list) and _index(node, key) is not None:
            node = node[key]
        else:
            return None
    return node


def _index(items: list[Any], key: Any) -> int | None:
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(items):
        return key
    return None
