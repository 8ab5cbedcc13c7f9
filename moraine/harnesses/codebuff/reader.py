"""Read Codebuff chats (``~/.config/manicode/projects/<project>/chats/<chat>/chat-messages.json``) as documents.

A chat folder is named by the time it started (``2026-07-16T00-09-00.236Z``, or without milliseconds, or a bare
date) and holds ``chat-messages.json``: a JSON array of messages ``{variant: user | ai | error, content, blocks,
timestamp}``. An ``ai`` message's ``blocks`` are ``text`` (``textType: reasoning`` for thinking), ``tool``
(``toolName``, ``toolCallId``, ``input``, ``output``), ``agent``, ``plan``, ``mode-divider``, ``ask-user`` and
``image``. A timestamp is ISO 8601, or a wall-clock ``HH:MM AM`` of the machine's local time on the chat's day
(a later message whose hour goes backwards is on the next day). The reader yields a header and the messages as
content blocks for the shared document adapter.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.document_adapter import header, message_record
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, parse_timestamp
from moraine.harnesses._shared.json_document import JsonDocumentReader, NotTheDocument

__all__ = ["CodebuffReader"]

_FOLDER_FORMATS = ("%Y-%m-%dT%H-%M-%S.%fZ", "%Y-%m-%dT%H-%M-%SZ", "%Y-%m-%dT%H-%M-%S.%f", "%Y-%m-%d")


class CodebuffReader(JsonDocumentReader):
    """Yield a Codebuff chat's header and its messages as content blocks."""

    error_reason = "malformed_session_file"
    reread_header = True

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the header and message records of one ``chat-messages.json``."""
        if not isinstance(document, list):
            raise NotTheDocument("chat-messages.json is not an array")
        session = path.parent.name
        started = _folder_time(session)
        clock = _WallClock(started.astimezone().date() if started else None)
        records = [header(session, started_at=started.isoformat() if started else None)]
        for index, message in enumerate(document):
            message = as_dict(message)
            when = clock.resolve(as_str(message.get("timestamp")))
            said = _said(message)
            records.append(message_record(session, index, said, timestamp=when.isoformat() if when else None))
        return records


def _folder_time(name: str) -> datetime | None:
    """Return when a chat started, from its folder name (UTC when it ends in Z, else the machine's local time)."""
    for layout in _FOLDER_FORMATS:
        try:
            parsed = datetime.strptime(name, layout)
        except ValueError:
            continue
        return parsed.replace(tzinfo=UTC) if name.endswith("Z") else parsed.astimezone()
    return None


class _WallClock:
    """Turn time-only stamps into instants on the chat's local day, stepping a day when the hour goes back."""

    def __init__(self, day: date | None) -> None:
        self.day = day
        self.hour = -1

    def resolve(self, stamp: str | None) -> datetime | None:
        if not stamp:
            return None
        moment, error = parse_timestamp(stamp)
        if error is None:
            return moment
        try:
            clock = datetime.strptime(stamp.strip(), "%I:%M %p")
        except ValueError:
            return None
        if self.day is None:
            return None
        if clock.hour < self.hour:
            self.day += timedelta(days=1)
        self.hour = clock.hour
        local = datetime.combine(self.day, clock.time())
        return local.astimezone()


def _said(message: dict[str, Any]) -> dict[str, Any]:
    """Return a Codebuff message as ``{role, content: [blocks]}`` (errors and unknown variants as system)."""
    variant = message.get("variant")
    if variant == "user":
        return {"role": "user", "content": as_str(message.get("content")) or ""}
    if variant != "ai":
        return {"role": "system", "content": as_str(message.get("content")) or ""}
    blocks: list[dict[str, Any]] = []
    for block in as_list(message.get("blocks")):
        block = as_dict(block)
        kind = block.get("type")
        if kind == "text" and block.get("textType") == "reasoning":
            blocks.append({"type": "thinking", "thinking": block.get("content")})
        elif kind in ("text", "plan"):
            blocks.append({"type": "text", "text": block.get("content")})
        elif kind == "tool":
            call_id = block.get("toolCallId")
            blocks.append(
                {
                    "type": "tool_use",
                    "id": call_id,
                    "name": block.get("toolName"),
                    "input": block.get("input"),
                }
            )
            if "output" in block:
                blocks.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": call_id,
                        "name": block.get("toolName"),
                        "content": block["output"],
                    }
                )
    if not blocks and as_str(message.get("content")):
        blocks.append({"type": "text", "text": message["content"]})
    return {"role": "assistant", "content": blocks}
