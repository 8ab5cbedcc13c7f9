"""Command Code transcripts (``~/.commandcode/projects/<project>/<uuid>.jsonl``) -> normalized events.

Each line is one message ``{sessionId, timestamp, role, content, metadata: {cwd, projectPath}, gitBranch}``: roles
user, assistant and tool; content a string or AI SDK blocks (``text``, ``reasoning``, ``tool-call`` with
``toolCallId``, ``toolName``, ``input``; ``tool-result`` with ``output: {type, value}``). The ``<uuid>.meta.json``
sidecar holds the session's ``title`` (``userRenamed`` when the user named it), ``projectPath`` and ``cwd``, read
again when it changes. The folder's ``*.checkpoints.jsonl`` and ``*.prompts.jsonl`` are not transcripts and yield
nothing. An assistant message calling no tool ends the turn with its text as the answer.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.content_blocks import AI_SDK_BLOCKS, message_events
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.sidecar import changed_sidecar
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, read_timestamp
from moraine.harness_api.model import Emitted, IngestError, SessionInfo

__all__ = ["CommandCodeAdapter"]

_NOT_TRANSCRIPTS = (".checkpoints.jsonl", ".prompts.jsonl")


class CommandCodeAdapter(ObjectAdapter):
    """Normalize Command Code transcripts."""

    harness = "commandcode"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line."""
        if ctx.path.name.endswith(_NOT_TRANSCRIPTS):
            return []
        session = as_str(data.get("sessionId")) or ctx.path.stem
        out: list[Emitted] = []
        meta = changed_sidecar(ctx.path.with_name(f"{ctx.path.stem}.meta.json"), ctx.state, "meta")
        if isinstance(meta, IngestError):
            out.append(meta)
        elif meta is not None:
            meta = as_dict(meta)
            cwd = as_str(meta.get("cwd")) or as_str(meta.get("projectPath"))
            out.append(SessionInfo(session, title=as_str(meta.get("title")), cwd=cwd))
        metadata = as_dict(data.get("metadata"))
        cwd = as_str(metadata.get("cwd")) or as_str(metadata.get("projectPath")) or as_str(data.get("cwd"))
        base = RecordEvents(session, read_timestamp(data.get("timestamp"), out), cwd)
        base.provenance = {"role": data.get("role"), "git_branch": data.get("gitBranch")}
        out.extend(message_events(data, AI_SDK_BLOCKS, base, as_str(data.get("model")), ctx.state))
        return out
