"""Configuration: ``~/.moraine/config.toml`` (or ``--config`` / ``MORAINE_CONFIG``), resolved once into ``Config``.

``MORAINE_HOME`` moves ``~/.moraine`` (tests use it). The store engineer owns this module: TOML loading, source
defaults for all eleven harnesses and validation with clear errors (``moraine.errors.ConfigError``) land here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Config", "SourceConfig", "load_config", "moraine_home"]


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


@dataclass(frozen=True, slots=True)
class Config:
    home: Path
    store_dsn: str
    database: str = "moraine"
    sources: tuple[SourceConfig, ...] = ()
    max_results: int = 50
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    redact: bool = True
    extra: dict[str, object] = field(default_factory=dict)


def load_config(path: Path | None = None) -> Config:
    """Load and validate the configuration (placeholder until the TOML loader lands: defaults only)."""
    home = moraine_home()
    return Config(home=home, store_dsn=f"chdb://{home / 'store'}")
