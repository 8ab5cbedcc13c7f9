"""Qoder transcripts (``<projects>/<project>/<session>.jsonl``) -> normalized events.

Qoder writes Claude Code's transcript format, so the Claude Code adapter reads it under Qoder's harness value
(sub-agent transcripts under ``<session>/subagents/agent-*.jsonl`` included). Beside a main transcript,
``<session>-session.json`` holds ``{title, working_dir, parent_session_id, fork_from}``: the title, the working
directory and the session it was forked from (else its parent) are taken from it, read again when it changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.ingest.adapters._memory import changed
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.adapters.claude_code import ClaudeCodeAdapter
from moraine.ingest.adapters.fields import as_str
from moraine.ingest.model import Emitted, Event, SessionInfo

__all__ = ["QoderAdapter"]

_MAX_SIDECAR_BYTES = 256 * 1024


class QoderAdapter(ClaudeCodeAdapter):
    """Normalize Qoder transcript records (Claude Code's format, with the session sidecar)."""

    harness = "qoder"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line."""
        out = super().normalize_object(data, ctx)
        sidecar = ctx.path.with_name(f"{ctx.path.stem}-session.json")
        if ctx.path.parent.name == "subagents":
            return out
        try:
            stat = sidecar.stat()
        except OSError:
            return out
        if not changed(ctx.state, "qoder_sidecar", [stat.st_mtime_ns, stat.st_size]):
            return out
        session = next((e.session for e in out if isinstance(e, Event)), None) or as_str(
            data.get("sessionId")
        )
        info = _sidecar(sidecar, session) if session else None
        return out + [info] if info is not None else out


def _sidecar(path: Path, session: str) -> SessionInfo | None:
    """Return what ``<session>-session.json`` says of the session (None when unreadable)."""
    try:
        with path.open("rb") as handle:
            meta = json.loads(handle.read(_MAX_SIDECAR_BYTES))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict):
        return None
    return SessionInfo(
        session=session,
        title=as_str(meta.get("title")),
        cwd=as_str(meta.get("working_dir")),
        parent_session=as_str(meta.get("fork_from")) or as_str(meta.get("parent_session_id")),
    )
