"""Keep ``$MORAINE_HOME`` user-only: directories 0700, files 0600, the embedded chDB store included.

The store holds everything the agents saw, so no other account on the host may list or read any of it. Two
measures, applied by every entry point that writes under the home (daemon, ``moraine ingest``, ``moraine mcp``):

- ``umask 077`` for the whole process, set before anything is created: chDB writes its parts, marks and metadata
  from its own threads at any time (merges, mutations), so a one-off ``chmod`` after each write could never keep up.
  Every entry point sets it first: the ``moraine`` command group (before any command runs) and each ``python -m
  moraine...`` module (the daemon a relay spawns, ingest workers, the embedder process). A first start used to
  create ``~/.moraine`` and ``logs/`` 0755 and ``daemon.log`` 0644 for a second and a half (``moraine web``
  prepared them before the daemon tightened them), and another account that opened the log then kept reading it.
- One walk over the tree at start that removes group and other permission bits wherever they are set, so an install
  made before this rule (0755 directories, 0644 files) is tightened the first time it runs again.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from moraine.config import Config

__all__ = ["USER_ONLY_UMASK", "chdb_directory", "restrict_process", "secure_home", "tighten_tree"]

logger = logging.getLogger("moraine.private_files")

USER_ONLY_UMASK = 0o077
_OTHERS = 0o077  # the group and other permission bits


def restrict_process() -> None:
    """Make everything this process creates from now on user-only (``umask 077``)."""
    os.umask(USER_ONLY_UMASK)


def tighten_tree(root: Path) -> list[Path]:
    """Remove group/other permission bits from ``root`` and everything under it; return the paths changed.

    A home or root directory is refused (``MORAINE_HOME=~`` must not make the user's whole home 0700/0600).
    Symbolic links are neither followed nor changed (their own mode means nothing on Linux). An entry that vanishes
    during the walk (chDB merges parts all the time) is skipped; one that cannot be changed (owned by another
    account) is logged and skipped, so a start never fails on it.
    """
    if root.resolve() in (Path.home().resolve(), Path(root.anchor)):
        logger.warning("not tightening %s: it is a home or root directory, not a Moraine home", root)
        return []
    changed: list[Path] = []
    pending = [root]
    while pending:
        path = pending.pop()
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(mode):
            continue
        if stat.S_IMODE(mode) & _OTHERS:
            try:
                os.chmod(path, stat.S_IMODE(mode) & ~_OTHERS)
            except FileNotFoundError:
                continue
            except PermissionError as exc:
                logger.warning("cannot make %s user-only: %s", path, exc)
            else:
                changed.append(path)
        if stat.S_ISDIR(mode):
            try:
                pending.extend(Path(entry.path) for entry in os.scandir(path))
            except (FileNotFoundError, NotADirectoryError):
                continue
            except PermissionError as exc:
                logger.warning("cannot list %s to make it user-only: %s", path, exc)
    return changed


def chdb_directory(dsn: str) -> Path | None:
    """Return the directory of an embedded chDB store (``chdb:///path``), None for a ClickHouse server."""
    if not dsn.startswith("chdb://"):
        return None
    return Path(dsn.removeprefix("chdb://").split("?", 1)[0]).expanduser()


def secure_home(config: Config) -> list[Path]:
    """Restrict this process, create the home 0700 and tighten it (and a chDB store kept elsewhere) once.

    Returns the paths whose permissions were too open (the caller logs how many were fixed).
    """
    restrict_process()
    config.home.mkdir(mode=0o700, parents=True, exist_ok=True)
    changed = tighten_tree(config.home)
    store = chdb_directory(config.store_dsn)
    if store is not None and store.exists() and not store.resolve().is_relative_to(config.home.resolve()):
        changed += tighten_tree(store)
    return changed
