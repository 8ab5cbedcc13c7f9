"""Build what the server runs on from configuration: the store, settings (with a persistent cursor secret)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from handlers.deps import Deps, Settings
from moraine.config import Config
from moraine.store.client import Store

__all__ = ["CURSOR_SECRET_FILE", "cursor_secret", "open_deps", "settings_from_config"]

CURSOR_SECRET_FILE = "cursor-secret"


def cursor_secret(home: Path) -> bytes:
    """Return the cursor-signing secret kept in ``home`` (created on first use, readable by the owner only)."""
    path = home / CURSOR_SECRET_FILE
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process created it first: use theirs
        else:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(secrets.token_hex(32))
    return bytes.fromhex(path.read_text(encoding="ascii").strip())


def settings_from_config(config: Config) -> Settings:
    """Return the handler settings for ``config``."""
    return Settings(
        max_results=config.max_results,
        bm25_k1=config.bm25_k1,
        bm25_b=config.bm25_b,
        cursor_secret=cursor_secret(config.home),
    )


def open_deps(config: Config, launch_dir: Path | None = None) -> Deps:
    """Open the store named by ``config`` and return the handlers' dependencies."""
    store = Store.open(config.store_dsn, config.database, limits=config.store_limits)
    return Deps(store=store, settings=settings_from_config(config), launch_dir=launch_dir)
