"""MCP client configuration for the agents that launch ``moraine mcp``: Claude Code, Codex and Cursor.

Each client gets the same server entry (command = this installation's ``moraine``, args = ``["mcp"]``, plus
``MORAINE_HOME``/``MORAINE_CONFIG`` when they are set). Writing merges the entry into the client's existing file:
other servers and settings are kept, the previous file is backed up, and a file that does not parse is left alone.

With an ``HttpTarget`` the entry is the daemon's streamable HTTP endpoint instead, with the install's secret as an
``Authorization: Bearer`` header (Claude Code: ``type = "http"`` in the user-scope ``~/.claude.json``, never a
project's ``.mcp.json`` that may be committed; Codex: ``url`` + ``http_headers``; Cursor: ``url`` + ``headers``).
A file that holds the secret is left readable by its owner only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "CLIENTS",
    "ClientConfig",
    "HttpTarget",
    "SetupError",
    "client_configs",
    "moraine_command",
    "server_entry",
    "write_config",
]

SERVER_NAME = "moraine"
CLIENTS = ("claude-code", "codex", "cursor")
_PASSED_ENV = ("MORAINE_HOME", "MORAINE_CONFIG")


class SetupError(Exception):
    """A client's existing configuration cannot be merged safely; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """One client's configuration: the file it reads, the text to merge, and how to add it by hand."""

    client: str
    path: Path
    format: str  # "json" or "toml"
    text: str
    hint: str
    private: bool = False  # holds the install's secret: written 0600 whatever the file's mode was


@dataclass(frozen=True, slots=True)
class HttpTarget:
    """The daemon's MCP endpoint over loopback HTTP and the secret a client must send there."""

    url: str
    secret: str

    @property
    def authorization(self) -> str:
        return f"Bearer {self.secret}"


def moraine_command() -> str:
    """Return the absolute path of this installation's ``moraine`` executable."""
    beside = Path(sys.executable).with_name("moraine")
    if beside.exists():
        return str(beside)
    found = shutil.which("moraine")
    return str(Path(found).absolute()) if found else "moraine"


def server_entry(command: str | None = None) -> dict[str, Any]:
    """Return the MCP server entry (``command``, ``args`` and, when set, ``env``)."""
    entry: dict[str, Any] = {"command": command or moraine_command(), "args": ["mcp"]}
    env = {name: os.environ[name] for name in _PASSED_ENV if os.environ.get(name)}
    if env:
        entry["env"] = env
    return entry


def _json_text(entry: dict[str, Any]) -> str:
    return json.dumps({"mcpServers": {SERVER_NAME: entry}}, indent=2) + "\n"


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def _toml_table(name: str, table: dict[str, str]) -> str:
    pairs = ", ".join(f"{key} = {_toml_string(value)}" for key, value in table.items())
    return f"{name} = {{ {pairs} }}"


def _toml_text(entry: dict[str, Any]) -> str:
    lines = [f"[mcp_servers.{SERVER_NAME}]"]
    if "url" in entry:
        lines.append(f"url = {_toml_string(entry['url'])}")
        lines.append(_toml_table("http_headers", entry["http_headers"]))
        return "\n".join(lines) + "\n"
    lines.append(f"command = {_toml_string(entry['command'])}")
    lines.append(f"args = [{', '.join(_toml_string(a) for a in entry['args'])}]")
    if entry.get("env"):
        lines.append(_toml_table("env", entry["env"]))
    return "\n".join(lines) + "\n"


def _http_configs(home: Path, target: HttpTarget) -> list[ClientConfig]:
    headers = {"Authorization": target.authorization}
    entries: list[tuple[str, Path, str, dict[str, Any], str]] = [
        (
            "claude-code",
            home / ".claude.json",
            "json",
            {"type": "http", "url": target.url, "headers": headers},
            "user scope: every project; the secret stays out of project files",
        ),
        (
            "codex",
            home / ".codex" / "config.toml",
            "toml",
            {"url": target.url, "http_headers": headers},
            "streamable HTTP with the secret as a bearer header",
        ),
        (
            "cursor",
            home / ".cursor" / "mcp.json",
            "json",
            {"url": target.url, "headers": headers},
            "Cursor reloads it on restart",
        ),
    ]
    return [
        ClientConfig(
            client, path, kind, _json_text(entry) if kind == "json" else _toml_text(entry), hint, True
        )
        for client, path, kind, entry, hint in entries
    ]


def client_configs(
    home: Path | None = None,
    project_dir: Path | None = None,
    command: str | None = None,
    http: HttpTarget | None = None,
) -> list[ClientConfig]:
    """Return the configuration of each client (files under ``home``; Claude Code's ``.mcp.json`` in ``project_dir``).

    With ``http``, each client reaches the daemon over loopback HTTP with the secret instead of launching a relay.
    """
    home = home or Path.home()
    if http is not None:
        return _http_configs(home, http)
    project_dir = project_dir or Path.cwd()
    entry = server_entry(command)
    env_flags = "".join(f" -e {name}={value}" for name, value in entry.get("env", {}).items())
    return [
        ClientConfig(
            "claude-code",
            project_dir / ".mcp.json",
            "json",
            _json_text(entry),
            f"or for every project: claude mcp add --scope user{env_flags} {SERVER_NAME} -- {entry['command']} mcp",
        ),
        ClientConfig(
            "codex",
            home / ".codex" / "config.toml",
            "toml",
            _toml_text(entry),
            f"or: codex mcp add {SERVER_NAME} -- {entry['command']} mcp",
        ),
        ClientConfig(
            "cursor", home / ".cursor" / "mcp.json", "json", _json_text(entry), "Cursor reloads it on restart"
        ),
    ]


def write_config(config: ClientConfig) -> Path | None:
    """Merge ``config`` into its file (created if missing); return the backup of the previous file, if any.

    Raises:
        SetupError: the existing file does not parse, or its shape does not allow a safe merge.
    """
    existing = config.path.read_text(encoding="utf-8") if config.path.exists() else None
    merged = _merge_json(config, existing) if config.format == "json" else _merge_toml(config, existing)
    backup = None
    if existing is not None:
        if existing == merged:
            return None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        backup = config.path.with_name(f"{config.path.name}.bak-{stamp}")
        shutil.copy2(config.path, backup)
    config.path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{config.path.name}.", dir=config.path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(merged)
    if existing is not None and not config.private:
        os.chmod(tmp, config.path.stat().st_mode & 0o777)  # mkstemp made it 0600: what a private file keeps
    os.replace(tmp, config.path)
    return backup


def _merge_json(config: ClientConfig, existing: str | None) -> str:
    ours: dict[str, Any] = json.loads(config.text)
    if existing is None or not existing.strip():
        return config.text
    try:
        data: Any = json.loads(existing)
    except json.JSONDecodeError as exc:
        raise SetupError(
            f"{config.path} is not valid JSON ({exc}); fix or move it, then run setup again"
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers", {}), dict):
        raise SetupError(f"{config.path}: expected an object with an 'mcpServers' object; not changing it")
    data.setdefault("mcpServers", {})[SERVER_NAME] = ours["mcpServers"][SERVER_NAME]
    return json.dumps(data, indent=2) + "\n"


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _is_ours(table: str) -> bool:
    parts = [p.strip().strip('"').strip("'") for p in table.split(".")]
    return parts[:2] == ["mcp_servers", SERVER_NAME]


def _merge_toml(config: ClientConfig, existing: str | None) -> str:
    if existing is None or not existing.strip():
        return config.text
    try:
        before = tomllib.loads(existing)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(
            f"{config.path} is not valid TOML ({exc}); fix or move it, then run setup again"
        ) from exc
    kept: list[str] = []
    skipping = False
    for line in existing.splitlines():
        header = _HEADER.match(line)
        if header:
            skipping = _is_ours(header.group(1))
        if not skipping:
            kept.append(line)
    body = "\n".join(kept).rstrip("\n")
    merged = (body + "\n\n" if body else "") + config.text
    after = tomllib.loads(merged)
    servers_before = dict(before.get("mcp_servers", {}))
    servers_before.pop(SERVER_NAME, None)
    servers_after = dict(after.get("mcp_servers", {}))
    ours = servers_after.pop(SERVER_NAME, None)
    others_before = {k: v for k, v in before.items() if k != "mcp_servers"}
    others_after = {k: v for k, v in after.items() if k != "mcp_servers"}
    if (
        servers_before != servers_after
        or others_before != others_after
        or ours != tomllib.loads(config.text)["mcp_servers"][SERVER_NAME]
    ):
        raise SetupError(
            f"{config.path}: could not merge [mcp_servers.{SERVER_NAME}] without changing other settings "
            "(is it defined inline?); add this by hand:\n" + config.text
        )
    return merged
