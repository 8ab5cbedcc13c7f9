"""What a harness declares to have Moraine's hooks written into its settings (``moraine setup --hooks``).

Each module ``moraine/harnesses/<pkg>/hook_client.py`` exposes ``CLIENT = HookClient(...)`` and registers it under
the ``moraine.hook_clients`` entry-point group. A client names the settings file that holds its command hooks, the
agent's hook events Moraine answers (``HookEntry``: the agent's event, an optional matcher, Moraine's event) and how
the agent reads a hook's output (``output``: ``json`` for ``{"hookSpecificOutput": {"additionalContext"}}``,
``text`` for plain stdout, ``field`` for ``{context_field: text}``). Every client here keeps its hooks in a JSON
``hooks`` object: event name -> list of ``{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}``
groups (``layout="groups"``), or of ``{"command", "timeout"}`` entries (``layout="flat"``, Cursor's).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

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
    output: Literal["json", "text", "field"] = "json"
    context_field: str | None = None  # with ``output="field"``: the key the added context goes under
    layout: Literal["groups", "flat"] = "groups"
    version: int | None = None
    timeout_unit: Literal["seconds", "milliseconds"] = "seconds"
    name_field: bool = False
    hint: str = ""

    def __post_init__(self) -> None:
        if (self.output == "field") != bool(self.context_field):
            raise ValueError(f"hook client {self.name}: context_field goes with output='field', and only there")
        if self.layout == "flat" and (self.name_field or any(e.matcher for e in self.entries)):
            raise ValueError(f"hook client {self.name}: a flat layout has no matchers or hook names")

    @property
    def format(self) -> str:
        """The ``--format`` of ``moraine hook`` for this agent."""
        return f"field:{self.context_field}" if self.output == "field" else self.output


@cache
def hook_clients() -> dict[str, HookClient]:
    """Return every registered hook client by name, sorted by name.

    Raises:
        TypeError: an entry point is not a ``HookClient``.
        ValueError: two clients share a name.
    """
    return registered(GROUP, HookClient)
