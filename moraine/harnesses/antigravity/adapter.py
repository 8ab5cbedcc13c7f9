"""Antigravity and Antigravity CLI conversations (what is readable in the clear) -> normalized events.

Records come from ``reader.AntigravityReader``, keyed: a typed prompt of the CLI's ``history.jsonl`` becomes the
user input that opens a turn (its ``workspace`` is the session's directory); a task, plan or walkthrough document
of ``brain/<id>/`` becomes an assistant response headed by its artifact type and summary (a rewritten document is
a new response). The agent's replies, reasoning and tool calls are in the steps database, which is not read, so no
response is marked as a turn's final answer. Each key is emitted once.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses.antigravity.reader import ARTIFACT_RECORD, PROMPT_RECORD
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed, remember
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, read_timestamp
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo

__all__ = ["AntigravityAdapter"]

_SEEN_LIMIT = 4096


class AntigravityAdapter(ObjectAdapter):
    """Normalize the prompts and brain documents of an Antigravity conversation."""

    harness = "antigravity"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events and session metadata of one record not emitted before."""
        key = as_str(data.get("key"))
        kind = data.get("record")
        if key is None or kind not in (PROMPT_RECORD, ARTIFACT_RECORD):
            return [IngestError("unknown_record", "not an Antigravity prompt or document record")]
        seen = ctx.state.setdefault("seen", {})
        if key in seen:
            return []
        remember(seen, key, 1, _SEEN_LIMIT)
        session = ctx.path.stem
        out: list[Emitted] = []
        if kind == PROMPT_RECORD:
            row = as_dict(data.get("row"))
            cwd = as_str(row.get("workspace"))
            if cwd and changed(ctx.state, "cwd", cwd):
                out.append(SessionInfo(session=session, cwd=cwd))
            text = as_str(row.get("display")) or ""
            record = RecordEvents(session, read_timestamp(row.get("timestamp"), out), cwd)
            out.append(record.event(EventType.USER_INPUT, text=text, starts_turn=bool(text.strip())))
            return out
        meta = as_dict(data.get("meta"))
        kind_name = as_str(meta.get("artifactType"))
        name = as_str(data.get("name")) or "document"
        header = f"[{kind_name.removeprefix('ARTIFACT_TYPE_').lower() if kind_name else 'document'}: {name}]"
        summary = as_str(meta.get("summary"))
        body = as_str(data.get("body")) or ""
        text = "\n".join(part for part in (header, summary, body) if part)
        record = RecordEvents(
            session,
            read_timestamp(meta.get("updatedAt"), out),
            as_str(ctx.state.get("cwd")),
            provenance={"artifact": name, "artifact_type": kind_name},
        )
        out.append(record.answer(text))
        return out
