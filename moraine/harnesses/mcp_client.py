"""What a harness declares to be configured as an MCP client: its config file, format and server entry shape.

Each client module (``moraine/harnesses/<pkg>/mcp_client.py``) exposes ``CLIENT = McpClient(...)`` and registers it
under the ``moraine.mcp_clients`` entry-point group, so ``moraine setup`` names no client and a separate package can
add one. The entry shapes are the clients' own documented ones; the common shapes are the functions below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from moraine.plugins import registered

__all__ = [
    "GROUP",
    "HttpTarget",
    "Launch",
    "McpClient",
    "command_entry",
    "http_url_headers",
    "mcp_clients",
    "typed_http",
    "url_headers",
]

GROUP = "moraine.mcp_clients"

Entry = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Launch:
    """How a client starts Moraine's stdio server: ``command`` with ``args``, plus environment to pass."""

    command: str
    args: tuple[str, ...] = ("mcp",)
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HttpTarget:
    """The daemon's MCP endpoint over loopback HTTP and the secret a client must send there."""

    url: str
    secret: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.secret}"}


def command_entry(launch: Launch) -> Entry:
    """Return the common stdio entry: ``{"command", "args", "env"?}``."""
    entry: Entry = {"command": launch.command, "args": list(launch.args)}
    if launch.env:
        entry["env"] = dict(launch.env)
    return entry


def url_headers(target: HttpTarget) -> Entry:
    """Return the common HTTP entry: ``{"url", "headers"}``."""
    return {"url": target.url, "headers": target.headers}


def http_url_headers(target: HttpTarget) -> Entry:
    """Return the Gemini CLI family's streamable HTTP entry: ``{"httpUrl", "headers"}``."""
    return {"httpUrl": target.url, "headers": target.headers}


def typed_http(kind: str, url_key: str = "url") -> Callable[[HttpTarget], Entry]:
    """Return an HTTP entry builder for clients that name the transport: ``{"type": kind, url_key, "headers"}``."""

    def build(target: HttpTarget) -> Entry:
        return {"type": kind, url_key: target.url, "headers": target.headers}

    return build


@dataclass(frozen=True, slots=True)
class McpClient:
    """One MCP client (see the module docstring).

    Paths start with ``~`` (the user's home); ``macos_path``/``windows_path`` replace ``path`` on those platforms
    (Windows paths start with ``%APPDATA%`` or ``~``). ``project_path`` is relative to a project directory and is
    written only when asked (``moraine setup --project``): a project file is often committed. ``present`` is a path
    whose existence shows the client is installed (default: the config file's folder).
    """

    name: str  # the client's name on the command line (`moraine setup --client NAME`)
    display_name: str
    path: str
    stdio: Callable[[Launch], Entry]
    http: Callable[[HttpTarget], Entry] | None = None  # None: the client cannot send our header
    format: Literal["json", "toml", "yaml"] = "json"
    servers_key: str = "mcpServers"  # the top-level object that maps server names to entries
    macos_path: str | None = None
    windows_path: str | None = None
    project_path: str | None = None
    present: str | None = None
    hint: str = ""


@cache
def mcp_clients() -> dict[str, McpClient]:
    """Return every registered MCP client by name, sorted by name.

    Raises:
        TypeError: an entry point is not an ``McpClient``.
        ValueError: two clients share a name.
    """
    return registered(GROUP, McpClient)
