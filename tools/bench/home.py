"""A throwaway MORAINE_HOME whose config.toml points the codex and claude sources at a generated corpus."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from moraine.config import default_sources

__all__ = ["bench_env", "write_config"]


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string literal is a valid TOML basic string


def write_config(
    home: Path, corpus: Path, manifest: dict[str, Any], workers: int = 0, newest: dict[str, Any] | None = None
) -> Path:
    """Write ``home/config.toml``: the store under ``home``, the corpus's sources on, every other source off;
    and the source of a planted newest-first probe (``tools.bench.newest``) when given."""
    home.mkdir(parents=True, exist_ok=True)
    dsn = f"chdb://{home / 'store'}"
    lines = ["[store]", f"dsn = {_toml_string(dsn)}", 'database = "moraine"', ""]
    lines += ["[ingest]", f"workers = {workers}", ""]
    ours = set()
    for source in manifest["sources"]:
        ours.add(source["name"])
        lines += [
            "[[sources]]",
            f"name = {_toml_string(source['name'])}",
            f"harness = {_toml_string(source['harness'])}",
            f"glob = {_toml_string(str(corpus / source['glob']))}",
            f"watch_root = {_toml_string(str(corpus / source['root']))}",
            'format = "jsonl"',
            "enabled = true",
            "",
        ]
    if newest is not None:
        lines += [
            "[[sources]]",
            f"name = {_toml_string(newest['source'])}",
            'harness = "claude-code"',
            f"glob = {_toml_string(newest['glob'])}",
            "",
        ]
    for source in default_sources():
        if source.name not in ours:
            lines += ["[[sources]]", f"name = {_toml_string(source.name)}", "enabled = false", ""]
    path = home / "config.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def bench_env(home: Path) -> dict[str, str]:
    """Return the environment for a child process that must only see the benchmark's home."""
    env = dict(os.environ)
    env["MORAINE_HOME"] = str(home)
    env["MORAINE_CONFIG"] = str(home / "config.toml")
    # The user's cache stays (the redaction ruleset's translation is kept there: a fresh one costs 10 to 20 s).
    env.setdefault("XDG_CACHE_HOME", str(Path.home() / ".cache"))
    env["HOME"] = str(home)  # nothing may fall back to the real ~/.codex or ~/.claude
    return env
