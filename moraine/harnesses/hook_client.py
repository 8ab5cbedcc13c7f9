"""What a harness declares to have Moraine's hooks written into its settings (``moraine setup --hooks``).

Each module ``moraine/harnesses/<pkg>/hook_client.py`` exposes ``CLIENT = HookClient(...)`` and registers it under
the ``moraine.hook_clients`` entry-point group. A client names the settings file that holds its command hooks, the
agent's hook events Moraine answers (``HookEntry``: the agent's event, an optional matcher, Moraine's event) and how
the agent reads a hook's output (``output``: ``json`` for ``{"hookSpecificOutput": {"additionalContext"}}``,
``text`` for plain stdout, ``document`` for the JSON object ``document`` with the context where it holds None).
A client keeps its hooks in a JSON ``hooks`` object: event name -> list of ``{"matcher"?, "hooks": [{"type":
"command", "command", "timeout"}]}`` groups (``layout="groups"``), or of ``{"command", "timeout"}`` entries
(``layout="flat"``, Cursor's); or, with ``layout="scripts"`` (Cline's), ``path`` is a folder holding one
executable per agent event, named after it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from moraine.plugins import registered

__all__ = ["GROUP", "HookClient", "HookEntry", "hook_clients"]

GROUP = "moraine.hook_clients"


@dataclass(frozen=True, slots=True)
class HookEntry:
    """One hook: when the agent fires ``agent_event`` (and ``matcher`` matches), run ``moraine hook EVENT``."""

    agent_event: str
    event: Literal["session-start", "prompt", "compact"]
    matcher: str | None = None


@dataclass(frozen=True, slots=True)
class HookClient:
    """One agent with command hooks (see the module docstring).

    ``timeout_unit`` is how the agent counts its own ``timeout`` field (it kills a hook past it; Moraine's deadline
    comes first); ``name_field`` an agent that names each hook (Gemini CLI's ``name``); ``version`` the
    ``version`` key a new file starts with (Cursor's ``hooks.json``).
    """

    name: str  # the harness name (`moraine setup --hooks --client NAME`)
    display_name: str
    path: str  # the user-scope settings file, from ``~``
    entries: tuple[HookEntry, ...]
    project_path: str | None = None
    output: Literal["json", "text", "document"] = "json"
    document: Mapping[str, Any] | None = None  # with ``output="document"``: None marks where the context goes
    layout: Literal["groups", "flat", "scripts"] = "groups"
    version: int | None = None
    timeout_unit: Literal["seconds", "milliseconds"] = "seconds"
    name_field: bool = False
    hint: str = ""

    def __post_init__(self) -> None:
        if (self.output == "document") != (self.document is not None):
            raise ValueError(
                f"hook client {self.name}: a document goes with output='document', and only there"
            )
        if self.document is not None and list(self.document.values()).count(None) != 1:
            raise ValueError(f"hook client {self.name}: the document needs exactly one None (the context)")
        if self.layout != "groups" and (self.name_field or any(e.matcher for e in self.entries)):
            raise ValueError(f"hook client {self.name}: only a groups layout has matchers or hook names")
        if self.layout == "scripts" and len({e.agent_event for e in self.entries}) != len(self.entries):
            raise ValueError(f"hook client {self.name}: one script per agent event")

    @property
    def format(self) -> str:
        """The ``--format`` of ``moraine hook`` for this agent."""
        if self.document is not None:
            return json.dumps(self.document, separators=(",", ":"))
        return self.output


@cache
def hook_clients() -> dict[str, HookClient]:
    """Return every registered hook client by name, sorted by name.

    Raises:
        TypeError: an entry point is not a ``HookClient``.
        ValueError: two clients share a name.
    """
    return registered(GROUP, HookClient)
