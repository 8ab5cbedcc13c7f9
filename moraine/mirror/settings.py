"""The ``[backends.<name>]`` and ``[[routes]]`` tables of the configuration.

::

    [backends.team]
    url = "https://clickhouse.example.com:8443"
    database = "moraine"
    user_env = "MORAINE_TEAM_USER"          # credentials come from environment variables, never the file
    password_env = "MORAINE_TEAM_PASSWORD"

    [[routes]]
    glob = "/home/me/work/acme/**"          # a session whose working directory matches goes to backend "team"
    backend = "team"
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

from moraine.config import Config
from moraine.errors import ConfigError

__all__ = ["Backend", "MirrorSettings", "Route", "mirror_settings"]

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_BACKEND_KEYS = {"url", "database", "user_env", "password_env"}
_ROUTE_KEYS = {"glob", "backend"}


@dataclass(frozen=True, slots=True)
class Backend:
    """A named ClickHouse server (``url`` http:// or https://) and database."""

    name: str
    url: str
    database: str = "moraine"
    user_env: str | None = None
    password_env: str | None = None

    def dsn(self) -> str:
        """Return the URL with the credentials read from the environment now.

        Raises:
            ConfigError: a named credential variable is not set.
        """
        user = self._env(self.user_env)
        password = self._env(self.password_env)
        if user is None and password is None:
            return self.url
        parts = urlsplit(self.url)
        auth = quote(user or "default", safe="") + (
            ":" + quote(password, safe="") if password is not None else ""
        )
        return urlunsplit(
            parts._replace(netloc=f"{auth}@{parts.hostname}{f':{parts.port}' if parts.port else ''}")
        )

    def _env(self, name: str | None) -> str | None:
        if name is None:
            return None
        value = os.environ.get(name)
        if value is None:
            raise ConfigError(f"backend {self.name!r}: environment variable {name} is not set")
        return value


@dataclass(frozen=True, slots=True)
class Route:
    """Sessions whose working directory matches ``glob`` (``*`` and ``**`` also cross ``/``) go to ``backend``."""

    glob: str
    backend: str


@dataclass(frozen=True, slots=True)
class MirrorSettings:
    backends: dict[str, Backend]
    routes: tuple[Route, ...]


def mirror_settings(config: Config) -> MirrorSettings:
    """Return the backends and routes of ``config`` (none by default).

    Raises:
        ConfigError: a table is malformed, a key unknown, a name or URL invalid, or a route names no backend.
    """
    reader = config.reader()
    where = reader.where
    raw_backends = config.extra.get("backends", {})
    if not isinstance(raw_backends, dict):
        raise ConfigError(f"{where}backends must be a table of tables ([backends.<name>])")
    backends: dict[str, Backend] = {}
    for name, raw in raw_backends.items():
        key = f"backends.{name}"
        if not _NAME.match(name):
            raise ConfigError(
                f"{where}{key}: a backend name is letters, digits, '_', '.', '-' (1-64 characters)"
            )
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}{key} must be a table")
        reader.only(raw, key, _BACKEND_KEYS)
        url = raw.get("url")
        if not isinstance(url, str) or not re.match(r"^https?://", url):
            raise ConfigError(
                f"{where}{key}.url must be a string starting with http:// or https:// (a ClickHouse server; "
                "a chDB directory belongs to one process, the local store's)"
            )
        database = raw.get("database", "moraine")
        if not isinstance(database, str) or not _IDENT.match(database):
            raise ConfigError(f"{where}{key}.database must be a plain identifier (got {database!r})")
        envs = {}
        for field in ("user_env", "password_env"):
            value = raw.get(field)
            if value is not None and (not isinstance(value, str) or not value):
                raise ConfigError(f"{where}{key}.{field} must name an environment variable")
            envs[field] = value
        backends[name] = Backend(name, url, database, envs["user_env"], envs["password_env"])
    raw_routes = config.extra.get("routes", [])
    if not isinstance(raw_routes, list):
        raise ConfigError(f"{where}routes must be an array of tables ([[routes]])")
    routes = []
    for index, raw in enumerate(raw_routes):
        key = f"routes[{index}]"
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}{key} must be a table")
        reader.only(raw, key, _ROUTE_KEYS)
        glob, backend = raw.get("glob"), raw.get("backend")
        if not isinstance(glob, str) or not glob.strip():
            raise ConfigError(f"{where}{key}.glob must be a non-empty string")
        if not isinstance(backend, str) or backend not in backends:
            known = ", ".join(sorted(backends)) or "none configured"
            raise ConfigError(f"{where}{key}.backend must name a configured backend (known: {known})")
        routes.append(Route(os.path.expanduser(glob), backend))
    return MirrorSettings(backends, tuple(routes))
