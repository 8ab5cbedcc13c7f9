"""Everything a handler may touch besides its request: the store, settings, the caller's launch directory and
the hybrid ranker."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from moraine.harnesses.registry import harnesses
from moraine.ranking import BM25_B, BM25_K1
from moraine.store.reads.floor import ProjectFloor
from moraine.semantic.hybrid import SemanticRanker
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
    for, sessions outside it. ``semantic`` holds the hybrid ranker once the semantic service has loaded it (empty:
    search stays lexical); the holder is shared by the copies a call makes with another launch directory or floor.
    ``harnesses`` names the installed harnesses (the registry's), what a harness filter is checked against.
    """

    store: Store
    settings: Settings
    launch_dir: Path | None = None
    floor: ProjectFloor | None = None
    semantic: SemanticRanker = field(default_factory=SemanticRanker)
    harnesses: frozenset[str] = field(default_factory=lambda: frozenset(harnesses()))
