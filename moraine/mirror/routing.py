"""Which backend a session is mirrored to: its repository's ``.moraine.toml``, else the first matching route."""

from __future__ import annotations

import fnmatch
import logging
import os
import posixpath
import tomllib

from moraine.attention.project import ProjectResolver, normalize_abs
from moraine.mirror.settings import MirrorSettings
from moraine.projects.projects import shared_resolver

__all__ = ["REPO_FILE", "Router"]

REPO_FILE = ".moraine.toml"
logger = logging.getLogger(__name__)


class Router:
    """Route session working directories to backend names (None: not mirrored)."""

    def __init__(self, settings: MirrorSettings, resolver: ProjectResolver | None = None) -> None:
        self.settings = settings
        self.resolver = resolver or shared_resolver()

    def backend_for(self, cwd: str | None) -> str | None:
        """Return the backend of a session that ran in ``cwd``."""
        if not cwd or not posixpath.isabs(cwd):
            return None
        cwd = normalize_abs(cwd)
        named = self._repo_backend(cwd)
        if named is not None:
            return named
        for route in self.settings.routes:
            if fnmatch.fnmatchcase(cwd, route.glob) or fnmatch.fnmatchcase(cwd + "/", route.glob):
                return route.backend
        return None

    def _repo_backend(self, cwd: str) -> str | None:
        """Return the backend a repository's ``.moraine.toml`` names (it selects nothing else)."""
        boundary = self.resolver.git_boundary(cwd)
        root = boundary.root if boundary is not None else cwd
        path = os.path.join(root, REPO_FILE)
        if not os.path.isfile(path):
            return None
        try:
            with open(path, "rb") as handle:
                data = tomllib.load(handle)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            logger.warning("%s: ignored (%s)", path, exc)
            return None
        name = data.get("backend")
        if name is None:
            return None
        if not isinstance(name, str) or name not in self.settings.backends:
            logger.warning(
                "%s: backend %r is not a configured backend; the session is not mirrored", path, name
            )
            return None
        return name
