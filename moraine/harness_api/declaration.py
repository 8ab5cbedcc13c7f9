"""What a harness declares: everything Moraine knows about one coding agent, in one value.

A harness is one folder (``moraine/harnesses/<name>/`` for the built-ins, or a pip package of its own) whose
``__init__`` exposes a ``HARNESS = Harness(...)`` and registers it under the ``moraine.harnesses`` entry-point
group (``pyproject.toml``: ``[project.entry-points."moraine.harnesses"]``). A harness that is also an MCP client declares how to configure
it in ``<pkg>/mcp_client.py`` under the ``moraine.mcp_clients`` group (``moraine.harnesses.mcp_client``). Config,
status, doctor, setup, resume and ingest read the registries (``moraine.harnesses.registry``); none of them names a harness.

Classes are named by import path (``"package.module:Class"``) so that reading the registry imports no adapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["Harness", "Location", "Resume"]

_EMPTY: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Location:
    """One standard source: a place the harness writes its traces, and the reader that opens them.

    ``glob`` and ``watch_root`` are the Linux paths (``~`` and ``$VARS`` expanded); macOS uses ``macos_glob``
    when it is set, else ``glob``; Windows uses ``windows_glob`` only. A platform whose glob is None has no such
    source. ``enabled = False`` makes a source opt-in (the user enables it in config).
    """

    source: str  # the source name, unique across all harnesses
    glob: str | None
    watch_root: str | None = None  # default: the glob's directory part before its first wildcard
    reader: str = "jsonl"  # a reader name: "jsonl" or one declared in some harness's ``readers``
    macos_glob: str | None = None
    macos_watch_root: str | None = None
    windows_glob: str | None = None
    windows_watch_root: str | None = None
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class Resume:
    """The agent's command line that resumes one of its sessions: ``words + [native session ID]``."""

    words: tuple[str, ...]
    in_cwd: bool = True  # prefix ``cd <session cwd> &&`` when the session's directory is known


@dataclass(frozen=True, slots=True)
class Harness:
    """One coding agent (see the module docstring)."""

    name: str  # the harness value in every response (spec/common.schema.json#/$defs/Harness)
    display_name: str
    adapter: str  # "module:Class" satisfying moraine.harness_api.adapter.Adapter, built with no arguments
    locations: tuple[Location, ...] = ()
    readers: Mapping[str, str] = field(default_factory=lambda: _EMPTY)  # reader name -> "module:Class"
    resume: Resume | None = None
    reads: str = ""  # one line for docs/harnesses.md: what is read
    not_read: str = ""  # one line for docs/harnesses.md: what is known and not read
    usage: str = (
        ""  # one line for docs/harnesses.md: where token usage is read from, per what (empty: not read)
    )
    importer: bool = False  # read only by `moraine import PATH` (data exports), never watched
    # What the adapter makes of the same bytes, numbered: raise it by one when a change to the adapter or its
    # readers makes them yield other rows from traces already read (events, text, sessions, usage). Every stream
    # read under a lower revision is read again from the start on the next ingest pass, its rows replaced as for a
    # rewritten file (``moraine.ingest.pipeline``); without a bump stored rows stay as the old adapter wrote them.
    revision: int = 1
