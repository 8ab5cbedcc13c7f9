"""Build what the server runs on from configuration: the store, settings (with a persistent cursor secret)."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

from handlers.deps import Deps, Settings
from moraine.config import Config
from moraine.store.client import Store

__all__ = ["CURSOR_SECRET_FILE", "cursor_secret", "open_deps", "settings_from_config"]

CURSOR_SECRET_FILE = "cursor-secret"
_SECRET_BYTES = 32


def cursor_secret(home: Path) -> bytes:
    """Return the cursor-signing secret kept in ``home`` (user-only), creating it when missing or unusable.

    A file that is empty, short or not hex (a crash or a full disk while it was written) is replaced: an empty HMAC
    key would let anyone forge cursors. The new secret is written to a temporary 0600 file first and then put in
    place in one step, so a reader never sees a partial secret; when two processes create it at once, both end up
    with the one that was linked first.
    """
    path = home / CURSOR_SECRET_FILE
    existing = _read_secret(path)
    if existing is not None:
        return existing
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".cursor-secret-", dir=home)  # created 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(_SECRET_BYTES))
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists() or path.is_symlink():
            os.replace(tmp, path)  # the old file is unusable
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass  # another process created it first: use theirs
    finally:
        Path(tmp).unlink(missing_ok=True)
    created = _read_secret(path)
    if created is None:
        raise OSError(f"{path} could not be written with a usable secret")
    return created


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
