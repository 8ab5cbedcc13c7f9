"""Configuration: ``~/.moraine/config.toml`` (or ``--config`` / ``MORAINE_CONFIG``), resolved once into ``Config``.

``MORAINE_HOME`` moves ``~/.moraine`` (tests use it). The file is TOML::

    redact = true                      # secret redaction before anything is stored (default on)

    [store]
    dsn = "chdb:///home/me/.moraine/store"   # or http(s)://user:pass@host:8123
    database = "moraine"
    max_memory_usage = 4294967296      # bytes one statement may use (0 = the server's own); over it: resource_exhausted
    max_temporary_disk = 17179869184   # bytes one statement may spill to disk (0 = the server's own)

    [ingest]
    batch_size = 5000                  # events per published batch
    rescan_seconds = 30                # watch mode: full rescan period
    workers = 2                        # worker processes for big passes (0-64; 0 = read in the ingest process;
                                       # default 2 with two or more cores, else 0)

    [[sources]]                        # overrides a default source by name, or adds a new one
    name = "codex"
    enabled = false

Every standard source (one per harness location) is configured by default; a user entry with the same name
overrides only the fields it sets. Unknown top-level tables are kept in ``Config.extra`` for other components.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from moraine.ranking import BM25_B, BM25_K1
from moraine.errors import ConfigError
from moraine.harness_api.declaration import Location
from moraine.harnesses.registry import harnesses
from moraine.store.limits import DEFAULT_MAX_MEMORY_USAGE, DEFAULT_MAX_TEMPORARY_DISK, StatementLimits

__all__ = [
    "Config",
    "SourceConfig",
    "TableReader",
    "default_sources",
    "export_source",
    "glob_root",
    "harness_for_source",
    "load_config",
    "moraine_home",
]

MAX_INGEST_WORKERS = 64
# Two workers made a first backfill 18-24 % faster on an idle 2-core machine (README, "Ingest workers"); one core
# gains nothing from them.
DEFAULT_INGEST_WORKERS = 2 if (os.cpu_count() or 1) >= 2 else 0
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
_GLOB_CHARS = re.compile(r"[*?\[]")


def __getattr__(name: str) -> tuple[str, ...]:
    """``HARNESSES`` (every registered harness) and ``FORMATS`` (every reader name), read from the registry on each
    access so that a harness package installed after import counts."""
    if name == "HARNESSES":
        return _harness_names()
    if name == "FORMATS":
        return _reader_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _harness_names() -> tuple[str, ...]:
    return tuple(harnesses())


def _reader_names() -> tuple[str, ...]:
    return ("jsonl", *sorted({reader for h in harnesses().values() for reader in h.readers}))


def moraine_home() -> Path:
    """Return the Moraine home directory (``$MORAINE_HOME`` or ``~/.moraine``)."""
    env = os.environ.get("MORAINE_HOME")
    return Path(env).expanduser() if env else Path.home() / ".moraine"


@dataclass(frozen=True, slots=True)
class SourceConfig:
    name: str
    harness: str
    glob: str
    watch_root: str
    format: str = "jsonl"
    enabled: bool = True

    def expanded_glob(self) -> str:
        """Return the glob with ``~`` and environment variables expanded."""
        return os.path.expandvars(os.path.expanduser(self.glob))

    def expanded_watch_root(self) -> Path:
        """Return the watch root with ``~`` and environment variables expanded."""
        return Path(os.path.expandvars(os.path.expanduser(self.watch_root)))


@dataclass(frozen=True, slots=True)
class Config:
    home: Path
    store_dsn: str
    database: str = "moraine"
    sources: tuple[SourceConfig, ...] = ()
    max_results: int = 50
    bm25_k1: float = BM25_K1
    bm25_b: float = BM25_B
    redact: bool = True
    extra: dict[str, object] = field(default_factory=dict)
    batch_size: int = 5000
    rescan_seconds: float = 30.0
    # ingest worker processes for passes of WORKER_MIN_BYTES or more (0: in-process)
    workers: int = DEFAULT_INGEST_WORKERS
    path: Path | None = None  # the file this was loaded from, None when only defaults apply
    store_limits: StatementLimits = field(default_factory=StatementLimits)

    def source(self, name: str) -> SourceConfig:
        """Return the source named ``name``.

        Raises:
            ConfigError: no source has that name.
        """
        for source in self.sources:
            if source.name == name:
                return source
        known = ", ".join(s.name for s in self.sources)
        raise ConfigError(f"unknown source {name!r}; configured sources: {known}")

    def reader(self) -> TableReader:
        """Return a reader whose errors name this configuration's file (for tables kept in ``extra``)."""
        return TableReader(f"{self.path}: " if self.path else "")


def default_sources(platform: str | None = None) -> tuple[SourceConfig, ...]:
    """Return the standard sources: every registered harness's locations on ``platform`` (default: this one)."""
    platform = platform or sys.platform
    registered = (
        _registered_source(h.name, location, platform)
        for h in harnesses().values()
        for location in h.locations
    )
    return tuple(s for s in registered if s is not None)


def _registered_source(name: str, location: Location, platform: str) -> SourceConfig | None:
    """Return a registered harness's location as a source on ``platform``, or None when it has none there."""
    glob: str | None
    root: str | None
    if platform == "darwin" and location.macos_glob:
        glob, root = location.macos_glob, location.macos_watch_root
    elif platform == "win32":
        glob, root = location.windows_glob, location.windows_watch_root
    else:
        glob, root = location.glob, location.watch_root
    if glob is None:
        return None
    return SourceConfig(
        location.source, name, glob, root or glob_root(glob), location.reader, location.enabled
    )


def harness_for_source(source: str) -> str:
    """Return the harness of a standard source name (any platform); an unknown name is returned as is."""
    for candidate in default_sources("darwin"):
        if candidate.name == source:
            return candidate.harness
    return source


def load_config(path: Path | None = None) -> Config:
    """Load and validate the configuration: ``path``, else ``$MORAINE_CONFIG``, else ``$MORAINE_HOME/config.toml``.

    A missing default file means "all defaults"; a missing explicit file is an error.

    Raises:
        ConfigError: the file is unreadable, not TOML, or a key has a wrong type or value (the message names it).
    """
    home = moraine_home()
    explicit = path if path is not None else _env_path()
    file = explicit if explicit is not None else home / "config.toml"
    data: dict[str, Any] = {}
    if file.exists():
        try:
            with file.open("rb") as handle:
                data = tomllib.load(handle)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{file}: not valid TOML: {exc}") from exc
        except OSError as exc:
            raise ConfigError(f"{file}: cannot read: {exc.strerror or exc}") from exc
    elif explicit is not None:
        raise ConfigError(f"config file {file} does not exist")
    return _build(data, home, file if file.exists() else None)


def _env_path() -> Path | None:
    env = os.environ.get("MORAINE_CONFIG")
    return Path(env).expanduser() if env else None


def _build(data: dict[str, Any], home: Path, file: Path | None) -> Config:
    reader = TableReader(f"{file}: " if file else "")
    where = reader.where
    store = reader.table(data, "store", {"dsn", "database", "max_memory_usage", "max_temporary_disk"})
    ingest = reader.table(data, "ingest", {"batch_size", "rescan_seconds", "workers"})
    search = reader.table(data, "search", {"max_results", "bm25_k1", "bm25_b"})
    dsn = reader.string(store, "store.dsn", f"chdb://{home / 'store'}")
    if not re.match(r"^(chdb|https?)://", dsn):
        raise ConfigError(f"{where}store.dsn must start with chdb://, http:// or https:// (got {dsn!r})")
    database = reader.string(store, "store.database", "moraine")
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$", database):
        raise ConfigError(f"{where}store.database must be a plain identifier (got {database!r})")
    extra = {k: v for k, v in data.items() if k not in {"store", "ingest", "search", "sources", "redact"}}
    return Config(
        home=home,
        store_dsn=dsn,
        database=database,
        sources=_sources(data.get("sources", []), reader),
        max_results=reader.integer(search, "search.max_results", 50, minimum=1),
        bm25_k1=reader.number(search, "search.bm25_k1", BM25_K1),
        bm25_b=reader.number(search, "search.bm25_b", BM25_B),
        redact=reader.boolean(data, "redact", True),
        extra=extra,
        batch_size=reader.integer(ingest, "ingest.batch_size", 5000, minimum=1),
        rescan_seconds=reader.number(ingest, "ingest.rescan_seconds", 30.0),
        workers=reader.integer(
            ingest, "ingest.workers", DEFAULT_INGEST_WORKERS, minimum=0, maximum=MAX_INGEST_WORKERS
        ),
        path=file,
        store_limits=StatementLimits(
            max_memory_usage=reader.integer(
                store, "store.max_memory_usage", DEFAULT_MAX_MEMORY_USAGE, minimum=0
            ),
            max_temporary_disk=reader.integer(
                store, "store.max_temporary_disk", DEFAULT_MAX_TEMPORARY_DISK, minimum=0
            ),
        ),
    )


def _sources(raw: object, reader: TableReader) -> tuple[SourceConfig, ...]:
    if not isinstance(raw, list):
        raise ConfigError(f"{reader.where}sources must be an array of tables ([[sources]])")
    by_name = {source.name: source for source in default_sources()}
    order = list(by_name)
    allowed = {"name", "harness", "glob", "watch_root", "format", "enabled"}
    for index, entry in enumerate(raw):
        key = f"sources[{index}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{reader.where}{key} must be a table")
        reader.only(entry, key, allowed)
        name = reader.string(entry, f"{key}.name", None)
        if not _NAME.match(name):
            raise ConfigError(
                f"{reader.where}{key}.name {name!r} must be lower-case letters, digits, '-', '_' or '.'"
            )
        base = by_name.get(name)
        fields: dict[str, Any] = {}
        for item in ("harness", "glob", "watch_root", "format"):
            if item in entry:
                fields[item] = reader.string(entry, f"{key}.{item}", None)
        if "enabled" in entry:
            fields["enabled"] = reader.boolean(entry, f"{key}.enabled", True)
        if base is None:
            for required in ("harness", "glob"):
                if required not in fields:
                    raise ConfigError(f"{reader.where}{key}.{required} is required for a new source {name!r}")
            fields.setdefault("watch_root", glob_root(fields["glob"]))
            fields.setdefault("format", "jsonl")
            source = SourceConfig(name=name, **fields)
            order.append(name)
        else:
            if "glob" in fields and "watch_root" not in fields:
                fields["watch_root"] = glob_root(fields["glob"])
            source = replace(base, **fields)
        known = _harness_names()  # read now, not at import: a harness package installed later counts
        if source.harness not in known:
            raise ConfigError(
                f"{reader.where}{key}.harness {source.harness!r} is not one of: {', '.join(known)}"
            )
        formats = _reader_names()
        if source.format not in formats:
            raise ConfigError(
                f"{reader.where}{key}.format {source.format!r} is not one of: {', '.join(formats)}"
            )
        by_name[name] = source
    return tuple(by_name[name] for name in order)


def glob_root(pattern: str) -> str:
    """Return the directory part of ``pattern`` before its first wildcard."""
    parts = Path(pattern).parts
    kept: list[str] = []
    for part in parts:
        if _GLOB_CHARS.search(part):
            break
        kept.append(part)
    if len(kept) == len(parts):
        kept = kept[:-1]
    return str(Path(*kept)) if kept else "."


@dataclass(frozen=True, slots=True)
class TableReader:
    """Typed access to TOML values that names the offending key (and the file, via ``where``) in every error."""

    where: str

    def table(self, data: dict[str, Any], key: str, allowed: set[str]) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self.where}{key} must be a table ([{key}])")
        self.only(value, key, allowed)
        return value

    def only(self, value: dict[str, Any], key: str, allowed: set[str]) -> None:
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise ConfigError(
                f"{self.where}{key}.{unknown[0]} is not a known setting (known: {', '.join(sorted(allowed))})"
            )

    def string(self, data: dict[str, Any], key: str, default: str | None) -> str:
        name = key.rsplit(".", 1)[-1]
        if name not in data:
            if default is None:
                raise ConfigError(f"{self.where}{key} is required")
            return default
        value = data[name]
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{self.where}{key} must be a non-empty string (got {value!r})")
        return value

    def boolean(self, data: dict[str, Any], key: str, default: bool) -> bool:
        name = key.rsplit(".", 1)[-1]
        value = data.get(name, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{self.where}{key} must be true or false (got {value!r})")
        return value

    def integer(
        self, data: dict[str, Any], key: str, default: int, minimum: int, maximum: int | None = None
    ) -> int:
        name = key.rsplit(".", 1)[-1]
        value = data.get(name, default)
        is_int = isinstance(value, int) and not isinstance(value, bool)
        if not is_int or value < minimum or (maximum is not None and value > maximum):
            bound = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum}"
            raise ConfigError(f"{self.where}{key} must be an integer {bound} (got {value!r})")
        return int(value)

    def number(self, data: dict[str, Any], key: str, default: float) -> float:
        name = key.rsplit(".", 1)[-1]
        value = data.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ConfigError(f"{self.where}{key} must be a non-negative number (got {value!r})")
        return float(value)


def export_source(harness: str, glob: str) -> SourceConfig:
    """Return the source that reads ``harness``'s exports (never watched: ``moraine import`` names the files)."""
    reader = f"{harness.replace('-', '_')}_export"
    return SourceConfig(harness, harness, glob, str(Path(glob).parent), reader, False)
