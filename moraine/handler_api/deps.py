"""Everything a handler may touch besides its request: the store, settings and the caller's launch directory."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from moraine.ranking import BM25_B, BM25_K1
from moraine.scope.floor import ProjectFloor
from moraine.store.client import Store

__all__ = ["Deps", "Settings"]


@dataclass(frozen=True, slots=True)
class Settings:
    """Tunables of the tools (from configuration); ``cursor_secret`` signs continuation cursors."""

    max_results: int = 50
    bm25_k1: float = BM25_K1
    bm25_b: float = BM25_B
    snippet_chars: int = 240
    cursor_secret: bytes = field(default_factory=lambda: os.urandom(32), repr=False)


@dataclass(frozen=True, slots=True)
class Deps:
    """The handler's world: ``launch_dir`` is the directory the MCP client launched from (None when unknown).

    ``floor`` is a project-only client's hard scope (None: no floor): handlers never return, and answer not_found
    for, sessions outside it.
    """

    store: Store
    settings: Settings
    launch_dir: Path | None = None
    floor: ProjectFloor | None = None
