"""Qoder transcripts (``<projects>/<project>/<session>.jsonl``) -> normalized events.

Qoder writes Claude Code's transcript format, so the Claude Code adapter reads it under Qoder's harness value
(sub-agent transcripts under ``<session>/subagents/agent-*.jsonl`` included). Beside a main transcript,
``<session>-session.json`` holds ``{title, working_dir, parent_session_id, fork_from}``: the title, the working
directory and the session it was forked from (else its parent) are taken from it, read again when it changes.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.sidecar import fresh_sidecar
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.claude_format.adapter import ClaudeCodeAdapter
from moraine.harnesses._shared.fields import as_str
from moraine.harness_api.model import Emitted, Event, SessionInfo

__all__ = ["QoderAdapter"]


class QoderAdapter(ClaudeCodeAdapter):
    """Normalize Qoder transcript records (Claude Code's format, with the session sidecar)."""

    harness = "qoder"
    # Qoder's Task results are not known to name their agent: its sub-agent transcripts stay sessions of their own.
    fold_subagents = False

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line."""
        out = super().normalize_object(data, ctx)
        if ctx.path.parent.name == "subagents":
            return out
        meta = fresh_sidecar(ctx.path.with_name(f"{ctx.path.stem}-session.json"), ctx.state, "qoder_sidecar")
        session = next((e.session for e in out if isinstance(e, Event)), None) or as_str(
            data.get("sessionId")
        )
        if meta is None or session is None:
            return out
        parent = as_str(meta.get("fork_from")) or as_str(meta.get("parent_session_id"))
        title, cwd = as_str(meta.get("title")), as_str(meta.get("working_dir"))
        return [*out, SessionInfo(session=session, title=title, cwd=cwd, parent_session=parent)]
