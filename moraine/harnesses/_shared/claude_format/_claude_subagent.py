"""Claude Code sub-agent transcripts, read into the session and turn of the Task call that started them.

Claude Code writes a Task (``Agent``) sub-agent's conversation to ``agent-<agentId>.jsonl``: beside the session's
transcript in 2.0 releases, in the session's own folder ``<sessionId>/subagents/`` in later ones. Its records carry
the parent's ``sessionId`` and ``isSidechain: true``. The parent names the agent when the sub-agent is done: the
``tool_result`` record of the Task call carries ``toolUseResult: {status, agentId}`` (an agent launched in the
background says ``async_launched`` there, and a ``queue-operation`` record's ``<task-notification>`` with its
``<task-id>``, a final ``<status>`` and, in some releases, its ``<tool-use-id>`` says when it is done; else the
call is the one whose launch named the agent); where the result names no agent, the sub-agent file whose first
prompt is the Task call's ``prompt`` is the one. At that point the parent's stream reads the sub-agent's file and
emits its events in the parent's session, as sidechain events of the current turn (they never start or end the
parent's turns), each naming its agent and the Task call in its provenance.

A sub-agent file is then no session of its own: read by itself it yields nothing when its parent's transcript is
there. One whose parent transcript is gone stays a session of its own, ``<sessionId>:<agentId>`` linked to its
parent (``moraine.harnesses._shared.claude_format._claude_record``). A transcript read in part is said (an ingest error), not
silently cut.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.memory import remember
from moraine.harness_api.model import IngestError

__all__ = [
    "agent_by_prompt",
    "finished_notification",
    "first_fold",
    "is_subagent_file",
    "parent_transcript",
    "subagent_file",
    "subagent_records",
]

MAX_RECORDS = 20_000
MAX_CANDIDATES = 256  # sub-agent files looked at for a Task call's prompt
_HEAD_BYTES = 1024 * 1024
MAX_BYTES = 64 * 1024 * 1024
_FOLDED_LIMIT = 256
_FINAL_STATUSES = frozenset({"completed", "failed", "killed", "cancelled", "canceled", "stopped", "error"})
_TAG = r"<{0}>\s*([^<\s]+)\s*</{0}>"


def is_subagent_file(path: Path) -> bool:
    """Return whether ``path`` is a sub-agent transcript (under ``subagents/`` or named ``agent-*``)."""
    return path.parent.name == "subagents" or path.stem.startswith("agent-")


def parent_transcript(path: Path, session: str | None) -> Path | None:
    """Return the transcript of the session a sub-agent file belongs to, when it is there."""
    if path.parent.name == "subagents":
        candidate = path.parent.parent.parent / f"{path.parent.parent.name}.jsonl"
    elif session:
        candidate = path.parent / f"{session}.jsonl"
    else:
        return None
    return candidate if candidate.is_file() else None


def subagent_file(transcript: Path, agent_id: str) -> Path | None:
    """Return the file of sub-agent ``agent_id`` of the session whose transcript is ``transcript``, if any."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,128}", agent_id):
        return None
    name = f"agent-{agent_id}.jsonl"
    for candidate in (transcript.parent / transcript.stem / "subagents" / name, transcript.parent / name):
        if candidate.is_file():
            return candidate
    return None


def agent_by_prompt(transcript: Path, prompt: str) -> str | None:
    """Return the id of the sub-agent of ``transcript``'s session whose first prompt is ``prompt``, if one is."""
    folders = (transcript.parent / transcript.stem / "subagents", transcript.parent)
    candidates = [
        path for folder in folders if folder.is_dir() for path in sorted(folder.glob("agent-*.jsonl"))
    ]
    for path in candidates[:MAX_CANDIDATES]:
        if _first_prompt(path) == prompt.strip():
            return path.stem.removeprefix("agent-")
    return None


def _first_prompt(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            for line in handle:
                if len(line) > _HEAD_BYTES:
                    return None
                data = json.loads(line) if line.strip() else None
                if isinstance(data, dict) and data.get("type") == "user":
                    content = (
                        data.get("message", {}).get("content")
                        if isinstance(data.get("message"), dict)
                        else None
                    )
                    return content.strip() if isinstance(content, str) else None
    except (OSError, ValueError):
        return None
    return None


def first_fold(state: dict[str, Any], agent_id: str) -> bool:
    """Return True the first time ``agent_id`` is folded into this stream (then remember it)."""
    folded = state.get("subagents_folded")
    if isinstance(folded, dict) and agent_id in folded:
        return False
    if not isinstance(folded, dict):
        folded = {}
        state["subagents_folded"] = folded
    remember(folded, agent_id, True, _FOLDED_LIMIT)
    return True


def finished_notification(content: str) -> tuple[str, str | None] | None:
    """Return ``(agent id, Task call id if named)`` of a ``<task-notification>`` saying a sub-agent is done."""
    if "<task-notification>" not in content:
        return None
    found = {tag: re.search(_TAG.format(tag), content) for tag in ("task-id", "tool-use-id", "status")}
    task, call, status = (match.group(1) if match else None for match in found.values())
    if task and status and status.lower() in _FINAL_STATUSES:
        return task, call
    return None


def subagent_records(path: Path) -> Iterator[dict[str, Any] | IngestError]:
    """Yield the JSON object records of a sub-agent transcript (bounded; what is not read is reported)."""
    read = 0
    try:
        with path.open("rb") as handle:
            for count, line in enumerate(handle):
                read += len(line)
                if count >= MAX_RECORDS or read > MAX_BYTES:
                    yield IngestError("subagent_truncated", f"{path.name}: read up to record {count}")
                    return
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except ValueError:
                    yield IngestError("malformed_json", f"{path.name}: record {count + 1} is not JSON")
                    continue
                if isinstance(data, dict):
                    yield data
    except OSError as exc:
        yield IngestError("subagent_unreadable", f"{path.name}: {exc.strerror or exc}")
