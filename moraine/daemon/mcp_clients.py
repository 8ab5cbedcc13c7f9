"""MCP client configuration for every agent that can launch ``moraine mcp`` (``moraine setup``).

The clients are the registered ``McpClient`` declarations (``moraine.harnesses.mcp_client``): this module names
none. Each gets the same server (this installation's ``moraine`` with ``mcp``, plus ``MORAINE_HOME``/
``MORAINE_CONFIG`` when they are set) in its own entry shape, in its user-scope file; a project's file only when
asked (it is often committed). Writing merges the entry into the client's existing file: other servers and settings
are kept, the previous file is backed up, and a file that does not parse is left alone.

With an ``HttpTarget`` the entry is the daemon's streamable HTTP endpoint with the install's secret as an
``Authorization: Bearer`` header, for the clients whose files can carry one; such a file is left readable by its
owner only, and the text shown to the user has the secret masked.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from moraine.harnesses.mcp_client import HttpTarget, Launch, McpClient, mcp_clients

__all__ = [
    "ClientConfig",
    "HttpTarget",
    "SetupError",
    "client_configs",
    "client_names",
    "moraine_command",
    "replace_file",
    "resolve_path",
    "write_config",
]

SERVER_NAME = "moraine"
MASK = "********"
_PASSED_ENV = ("MORAINE_HOME", "MORAINE_CONFIG")


class SetupError(Exception):
    """A client's existing configuration cannot be merged safely; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """One client's configuration: the file it reads, our entry in it, and the text to show or merge."""

    client: str
    display_name: str
    path: Path
    format: str  # "json", "toml" or "yaml"
    servers_key: str
    entry: dict[str, Any]
    hint: str
    present: bool  # the client looks installed here
    private: bool = False  # holds the install's secret: written 0600 whatever the file's mode was
    secret: str | None = None

    @property
    def text(self) -> str:
        """Return the document holding only our entry, in the client's format."""
        document = {self.servers_key: {SERVER_NAME: self.entry}}
        if self.format == "toml":
            return _toml_text(self.servers_key, self.entry)
        return _DOCUMENTS[self.format][3](document)

    @property
    def shown(self) -> str:
        """Return ``text`` with the secret masked: what may be printed."""
        return self.text.replace(self.secret, MASK) if self.secret else self.text


def client_names() -> tuple[str, ...]:
    """Return the names of every registered MCP client."""
    return tuple(mcp_clients())


def moraine_command() -> str:
    """Return the absolute path of this installation's ``moraine`` executable."""
    beside = Path(sys.executable).with_name("moraine")
    if beside.exists():
        return str(beside)
    found = shutil.which("moraine")
    return str(Path(found).absolute()) if found else "moraine"


def launch(command: str | None = None) -> Launch:
    """Return how clients start the stdio server (this install's command and the environment to pass)."""
    env = {name: os.environ[name] for name in _PASSED_ENV if os.environ.get(name)}
    return Launch(command or moraine_command(), ("mcp",), env)


def resolve_path(raw: str, home: Path) -> Path:
    """Return a declared path (``~``, ``%APPDATA%`` or absolute) under ``home``."""
    if raw.startswith("%APPDATA%"):
        appdata = os.environ.get("APPDATA") or str(home / "AppData" / "Roaming")
        return Path(appdata + raw[len("%APPDATA%") :])
    if raw.startswith("~"):
        return home / raw[2:]
    return Path(raw)


def _user_path(client: McpClient, platform: str) -> str:
    if platform == "darwin" and client.macos_path:
        return client.macos_path
    if platform == "win32" and client.windows_path:
        return client.windows_path
    return client.path


def client_configs(
    home: Path | None = None,
    project_dir: Path | None = None,
    command: str | None = None,
    http: HttpTarget | None = None,
    platform: str | None = None,
) -> list[ClientConfig]:
    """Return every client's configuration (user scope under ``home``; with ``project_dir``, project files).

    With ``http``, the clients whose files can carry a header reach the daemon over loopback HTTP with the secret;
    the others still launch ``moraine mcp``.
    """
    home = home or Path.home()
    platform = platform or sys.platform
    started = launch(command)
    configs = []
    for client in mcp_clients().values():
        user_path = resolve_path(_user_path(client, platform), home)
        path = project_dir / client.project_path if project_dir and client.project_path else user_path
        over_http = http is not None and client.http is not None
        entry = client.http(http) if over_http and client.http and http else client.stdio(started)
        present = resolve_path(client.present, home) if client.present else user_path.parent
        configs.append(
            ClientConfig(
                client.name,
                client.display_name,
                path,
                client.format,
                client.servers_key,
                entry,
                client.hint,
                present.exists() or user_path.exists(),
                private=over_http,
                secret=http.secret if over_http and http else None,
            )
        )
    return configs


def write_config(config: ClientConfig) -> Path | None:
    """Merge ``config`` into its file (created if missing); return the backup of the previous file, if any.

    Raises:
        SetupError: the existing file does not parse, or its shape does not allow a safe merge.
    """
    existing = config.path.read_text(encoding="utf-8") if config.path.exists() else None
    merged = _merge_toml(config, existing) if config.format == "toml" else _merge_document(config, existing)
    return replace_file(config.path, existing, merged, config.private)


def replace_file(path: Path, existing: str | None, merged: str, private: bool = False) -> Path | None:
    """Write ``merged`` over ``path`` in one step (``existing`` is its current text, None when it is missing);
    return the backup of the previous file, None when there was none or nothing changed.

    The file keeps its mode unless ``private`` (then it and its backup are 0600).
    """
    backup = None
    if existing is not None:
        if existing == merged:
            return None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        backup = path.with_name(f"{path.name}.bak-{stamp}")
        taken = 1
        while (
            backup.exists()
        ):  # a second write within the second (MCP entry, then hooks) keeps the first backup
            taken += 1
            backup = path.with_name(f"{path.name}.bak-{stamp}-{taken}")
        shutil.copy2(path, backup)
        if private:
            os.chmod(backup, 0o600)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(merged)
    if existing is not None and not private:
        os.chmod(tmp, path.stat().st_mode & 0o777)  # mkstemp made it 0600: what a private file keeps
    os.replace(tmp, path)
    return backup


def _merged_mapping(config: ClientConfig, data: Any, kind: str) -> dict[str, Any]:
    """Return ``data`` (the parsed file) with our entry set, or raise when its shape forbids a safe merge."""
    if data is None:
        data = {}
    if not isinstance(data, dict) or not isinstance(data.get(config.servers_key, {}), dict):
        raise SetupError(
            f"{config.path}: expected a {kind} object with a '{config.servers_key}' object; not changing it"
        )
    if data.get(config.servers_key) is None:
        data[config.servers_key] = {}
    data[config.servers_key][SERVER_NAME] = config.entry
    return data


def _json_dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2) + "\n"


def _yaml_dump(data: dict[str, Any]) -> str:
    return str(yaml.safe_dump(data, sort_keys=False))


# format -> (its name in messages, parse, the error a bad file raises, dump)
_DOCUMENTS: dict[str, tuple[str, Callable[[str], Any], type[Exception], Callable[[dict[str, Any]], str]]] = {
    "json": ("JSON", json.loads, json.JSONDecodeError, _json_dump),
    "yaml": ("YAML", yaml.safe_load, yaml.YAMLError, _yaml_dump),
}


def _merge_document(config: ClientConfig, existing: str | None) -> str:
    if existing is None or not existing.strip():
        return config.text
    kind, parse, error, dump = _DOCUMENTS[config.format]
    try:
        data = parse(existing)
    except error as exc:
        raise SetupError(
            f"{config.path} is not valid {kind} ({exc}); fix or move it, or add this by hand:\n{config.shown}"
        ) from exc
    return dump(_merged_mapping(config, data, kind))


def _toml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml_value(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return json.dumps(value)  # a JSON string, number or boolean is valid TOML


def _toml_text(servers_key: str, entry: dict[str, Any]) -> str:
    lines = [f"[{servers_key}.{SERVER_NAME}]"]
    lines.extend(f"{key} = {_toml_value(value)}" for key, value in entry.items())
    return "\n".join(lines) + "\n"


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _is_ours(servers_key: str, table: str) -> bool:
    parts = [p.strip().strip('"').strip("'") for p in table.split(".")]
    return parts[:2] == [servers_key, SERVER_NAME]


def _merge_toml(config: ClientConfig, existing: str | None) -> str:
    if existing is None or not existing.strip():
        return config.text
    try:
        before = tomllib.loads(existing)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(
            f"{config.path} is not valid TOML ({exc}); fix or move it, then run setup again"
        ) from exc
    key = config.servers_key
    kept: list[str] = []
    skipping = False
    for line in existing.splitlines():
        header = _HEADER.match(line)
        if header:
            skipping = _is_ours(key, header.group(1))
        if not skipping:
            kept.append(line)
    body = "\n".join(kept).rstrip("\n")
    merged = (body + "\n\n" if body else "") + config.text
    after = tomllib.loads(merged)
    servers_before = dict(before.get(key, {}))
    servers_before.pop(SERVER_NAME, None)
    servers_after = dict(after.get(key, {}))
    ours = servers_after.pop(SERVER_NAME, None)
    others_before = {k: v for k, v in before.items() if k != key}
    others_after = {k: v for k, v in after.items() if k != key}
    if servers_before != servers_after or others_before != others_after or ours != config.entry:
        raise SetupError(
            f"{config.path}: could not merge [{key}.{SERVER_NAME}] without changing other settings "
            "(is it defined inline?); add this by hand:\n" + config.shown
        )
    return merged
