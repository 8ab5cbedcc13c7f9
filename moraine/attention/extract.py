"""Touch extraction at ingest: which files a tool call names, placed in their project (file_attention's rows).

How the pipeline calls it (once per stored tool call, after redaction, in the batch's publish order)::

    ctx = TouchContext(session_key, seq, turn_seq, harness, source, timestamp=<the events row's timestamp>,
                       cwd=<event cwd, else session cwd>, stream_id=..., source_offset=...)
    touches = extract_touches(event, ctx)              # each Touch is a Mapping of touches column -> value
    store.insert("touches", [t.as_row() for t in touches], TOUCH_COLUMNS)  # after events, before turns

``projects`` (a shared ``ProjectResolver``) lets a caller own the directory cache.

Only ``tool_call`` events yield touches, never Moraine's own tools. Sources, in order (first wins per file):
structured argument keys at any depth (``path_suffix``), ``apply_patch`` bodies (``patch_path``), shell
``command``/``cmd`` operands (``shell_path``). Relative paths resolve against the call's ``workdir`` argument, else
the event's cwd, else the session's cwd.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.attention.patch import patch_paths
from moraine.attention.pathtext import clean_path
from moraine.attention.project import Placement, ProjectResolver
from moraine.attention.shell import shell_operands
from moraine.harness_api.model import MORAINE_TOOL_NAMES, Event, EventType

__all__ = [
    "PREVIEW_CHARS",
    "TOUCH_COLUMNS",
    "MatchKind",
    "Touch",
    "TouchContext",
    "extract_touches",
    "is_moraine_tool_name",
]

PREVIEW_CHARS = 160
TOUCH_COLUMNS: tuple[str, ...] = (
    "tail",
    "session_key",
    "seq",
    "turn_seq",
    "path",
    "project_id",
    "worktree_root",
    "match_kind",
    "tool_name",
    "harness",
    "source",
    "timestamp",
    "action_preview",
    "stream_id",
    "source_offset",
)


class MatchKind:
    """How a touch was found (the ``match_kind`` values)."""

    STRUCTURED = "path_suffix"
    SHELL = "shell_path"
    PATCH = "patch_path"


# Structured argument keys naming files, compared lower-cased without underscores (file_path == filePath).
_PATH_KEYS = frozenset(
    {
        "filepath",
        "notebookpath",
        "path",
        "targetfile",
        "relativeworkspacepath",
        "file",
        "filename",
        "filepaths",
        "paths",
        "files",
        "targetfiles",
        "absolutepath",
        "oldpath",
        "newpath",
    }
)
_SHELL_KEYS = frozenset({"command", "cmd"})
_WORKDIR_KEYS = ("workdir", "cwd", "working_directory", "workingDirectory")
_SHELL_TOOLS = frozenset({"bash", "shell", "exec_command", "local_shell", "run_terminal_cmd", "terminal"})
_MAX_DEPTH = 12
_MAX_CANDIDATES = 64
_SPACE = re.compile(r"\s+")

_default_resolver: ProjectResolver | None = None


@dataclass(frozen=True, slots=True)
class TouchContext:
    """What the pipeline knows about the event beyond the adapter's output (keys, turn, source, stored time, cwd).

    ``timestamp`` is the events row's timestamp (touches must carry the same value); ``cwd`` is the working
    directory to use when the event has none (the session's).
    """

    session_key: int
    seq: int
    turn_seq: int
    harness: str
    source: str
    timestamp: datetime | None = None
    cwd: str | None = None
    stream_id: int = 0
    source_offset: int = 0
    projects: ProjectResolver | None = None


@dataclass(frozen=True, slots=True)
class Touch(Mapping[str, Any]):
    """One row of the ``touches`` table (also a read-only mapping column -> value)."""

    tail: str
    session_key: int
    seq: int
    turn_seq: int
    path: str
    project_id: str
    worktree_root: str | None
    match_kind: str
    tool_name: str
    harness: str
    source: str
    timestamp: datetime | None
    action_preview: str
    stream_id: int
    source_offset: int

    def as_row(self) -> tuple[Any, ...]:
        """Return the values in ``TOUCH_COLUMNS`` order."""
        return tuple(getattr(self, column) for column in TOUCH_COLUMNS)

    def __getitem__(self, column: str) -> Any:
        if column not in TOUCH_COLUMNS:
            raise KeyError(column)
        return getattr(self, column)

    def __iter__(self) -> Iterator[str]:
        return iter(TOUCH_COLUMNS)

    def __len__(self) -> int:
        return len(TOUCH_COLUMNS)


def is_moraine_tool_name(name: str | None) -> bool:
    """Return True for Moraine's own tools, bare or provider-qualified (``mcp__moraine__file_attention``)."""
    if not name:
        return False
    lowered = name.lower()
    return any(lowered == tool or lowered.endswith("__" + tool) for tool in MORAINE_TOOL_NAMES)


def extract_touches(event: Event, ctx: TouchContext) -> list[Touch]:
    """Return the file touches of one event (empty unless it is a tool call to a non-Moraine tool)."""
    if (
        event.type is not EventType.TOOL_CALL
        or event.is_moraine_tool
        or is_moraine_tool_name(event.tool_name)
    ):
        return []
    arguments = _decode(event.arguments)
    cwd = event.cwd or ctx.cwd
    base = _workdir(arguments, cwd)
    resolver = ctx.projects or _shared_resolver()
    touches: list[Touch] = []
    seen: set[str] = set()
    for raw, kind, relative_to, strong, preview in _candidates(event.tool_name, arguments):
        placed = _place(resolver, raw, _join(base, relative_to), strong)
        if placed is None or placed.path in seen:
            continue
        seen.add(placed.path)
        touches.append(_touch(event, ctx, placed, kind, preview))
        if len(touches) >= _MAX_CANDIDATES:
            break
    return touches


def _shared_resolver() -> ProjectResolver:
    global _default_resolver
    if _default_resolver is None:
        _default_resolver = ProjectResolver()
    return _default_resolver


def _decode(arguments: Any) -> Any:
    if isinstance(arguments, str):
        text = arguments.strip()
        if text[:1] in ("{", "["):
            try:
                return json.loads(text)
            except ValueError:
                return arguments
    return arguments


def _workdir(arguments: Any, cwd: str | None) -> str | None:
    if isinstance(arguments, dict):
        for key in _WORKDIR_KEYS:
            value = arguments.get(key)
            if isinstance(value, str) and value.strip():
                cleaned = clean_path(value.rstrip("/") or "/")
                if cleaned is not None:
                    return _join(cwd, cleaned)
    return cwd


def _join(base: str | None, relative: str) -> str | None:
    if not relative:
        return base
    if posixpath.isabs(relative):
        return relative
    return posixpath.join(base, relative) if base else None


Candidate = tuple[str, str, str, bool, str]


def _candidates(tool_name: str | None, arguments: Any) -> Iterator[Candidate]:
    """Yield (raw path, match kind, extra relative dir, strong, preview) in priority order."""
    preview: str | None = None  # rendered for the first candidate (most calls have none)
    for value in _structured(arguments, 0):
        preview = _preview(arguments) if preview is None else preview
        yield value, MatchKind.STRUCTURED, "", True, preview
    for text in _strings(arguments, 0):
        if "*** Begin Patch" not in text:
            continue  # a marker line without the envelope is text about patches, not a patch
        for path in patch_paths(text):
            preview = _preview(arguments) if preview is None else preview
            yield path, MatchKind.PATCH, "", True, preview
    commands = list(_commands(arguments, 0))
    if isinstance(arguments, str) and (tool_name or "").lower() in _SHELL_TOOLS:
        commands.append(arguments)
    for command in commands:
        command_preview = _clip(command if isinstance(command, str) else " ".join(map(str, command)))
        for operand in shell_operands(command):
            yield operand.path, MatchKind.SHELL, operand.cd, operand.strong, command_preview


def _structured(value: Any, depth: int) -> Iterator[str]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and key.replace("_", "").lower() in _PATH_KEYS:
                if isinstance(item, str):
                    yield item
                elif isinstance(item, list):
                    yield from (entry for entry in item if isinstance(entry, str))
            if isinstance(item, (dict, list)):
                yield from _structured(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _structured(item, depth + 1)


def _strings(value: Any, depth: int) -> Iterator[str]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def _commands(value: Any, depth: int) -> Iterator[str | list[str]]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and key.lower() in _SHELL_KEYS:
                if isinstance(item, str):
                    yield item
                elif isinstance(item, list) and all(isinstance(word, str) for word in item):
                    yield list(item)
            elif isinstance(item, (dict, list)):
                yield from _commands(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                yield from _commands(item, depth + 1)


def _place(resolver: ProjectResolver, raw: str, base: str | None, strong: bool) -> Placement | None:
    cleaned = clean_path(raw)
    if cleaned is None:
        return None
    placed = resolver.place(cleaned, base)
    if posixpath.isabs(placed.path):
        if os.path.isdir(placed.path):
            return None  # a directory (Grep/Glob/LS path, cd target) is not a file touch
        if not strong and not os.path.isfile(placed.path):
            return None
    elif not strong:
        return None
    return placed


def _preview(arguments: Any) -> str:
    if isinstance(arguments, str):
        return _clip(arguments)
    try:
        text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"), default=str)
    except (TypeError, ValueError):
        text = str(arguments)
    return _clip(text)


def _clip(text: str) -> str:
    if len(text) > _CLIP_HEAD:
        # Collapsing a head of the text gives a prefix of the whole text collapsed: when that head alone is longer
        # than a preview, the preview is its start (a long file written or patched is not collapsed whole).
        head = _SPACE.sub(" ", text[:_CLIP_HEAD]).strip()
        if len(head) > PREVIEW_CHARS:
            return head[:PREVIEW_CHARS] + "…"
    flat = _SPACE.sub(" ", text).strip()
    return flat if len(flat) <= PREVIEW_CHARS else flat[:PREVIEW_CHARS] + "…"


_CLIP_HEAD = 4 * PREVIEW_CHARS


def _touch(event: Event, ctx: TouchContext, placed: Placement, kind: str, preview: str) -> Touch:
    return Touch(
        tail=placed.tail,
        session_key=ctx.session_key,
        seq=ctx.seq,
        turn_seq=ctx.turn_seq,
        path=placed.path,
        project_id=placed.project_id,
        worktree_root=placed.root,
        match_kind=kind,
        tool_name=event.tool_name or "",
        harness=ctx.harness,
        source=ctx.source,
        timestamp=ctx.timestamp,
        action_preview=preview,
        stream_id=ctx.stream_id,
        source_offset=ctx.source_offset,
    )
