"""Build what the server runs on from configuration: the store, settings (with a persistent cursor secret)."""

from __future__ import annotations

import secrets
from pathlib import Path

from moraine.handler_api import Deps, Settings
from moraine.config import Config
from moraine.secret_file import ensure_secret_file
from moraine.store.client import Store

__all__ = ["CURSOR_SECRET_FILE", "cursor_secret", "open_deps", "settings_from_config"]

CURSOR_SECRET_FILE = "cursor-secret"
_SECRET_BYTES = 32


def cursor_secret(home: Path) -> bytes:
    """Return the cursor-signing secret kept in ``home`` (user-only); a missing, empty, short or non-hex file is
    replaced (see ``moraine.secret_file``)."""
    return ensure_secret_file(
        home / CURSOR_SECRET_FILE, _read_secret, lambda: secrets.token_hex(_SECRET_BYTES)
    )


def _read_secret(path: Path) -> bytes | None:
    """Return the secret in ``path``, or None when the file is missing, empty, short or not hex."""
    try:
        secret = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (FileNotFoundError, UnicodeDecodeError, ValueError):
        return None
    return secret if len(secret) >= _SECRET_BYTES else None


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
