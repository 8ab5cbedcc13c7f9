"""Windsurf chat state (``state.vscdb`` chat data) -> normalized events.

Records come from ``reader.WindsurfChatReader``: ``{record, key, value, cwd, settled}``. The value is either a VS
Code chat session (``{sessionId, customTitle, requests: [...]}``, read request by request as VS Code Copilot's are)
or a panel of tabs ``{tabs: [{tabId, chatTitle, bubbles: [{type, text | rawText | initText}]}]}`` where bubble type
2 (``"2"``, ``ai``, ``assistant``) is the assistant and any other the user. Each snapshot emits what was not
emitted before: a request once it has a result (or the snapshot is settled), a bubble once another follows it (or
the snapshot is settled). A session without an id is named after its workspace folder (``workspace-<hash>``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from moraine.harnesses._shared.snapshot import Said, said_events, take_new
from moraine.harnesses._shared.vscode_chat import chat_request
from moraine.harnesses.windsurf.reader import CHATDATA_RECORD
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_list, as_str, parse_timestamp
from moraine.harness_api.model import Emitted, IngestError, SessionInfo

__all__ = ["WindsurfAdapter"]

_ASSISTANT = frozenset({"2", "ai", "assistant"})


def _chatdata(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    value = data.get("value")
    cwd = as_str(data.get("cwd"))
    settled = data.get("settled") is True
    if isinstance(value, dict) and isinstance(value.get("requests"), list):
        return _session(value, cwd, settled, ctx)
    if isinstance(value, dict) and isinstance(value.get("tabs"), list):
        # Bubbles carry no time: a bubble is first seen in the version of the database written at ``updated``.
        seen, _ = parse_timestamp(data.get("updated"))
        out: list[Emitted] = []
        for tab in value["tabs"]:
            out.extend(_tab(tab, cwd, settled, seen, ctx))
        return out
    return [IngestError("unknown_record", f"chat data {data.get('key')!r}: neither requests nor tabs")]


def _session(value: dict[str, Any], cwd: str | None, settled: bool, ctx: StreamContext) -> list[Emitted]:
    meta = {**value, "sessionId": as_str(value.get("sessionId")) or f"workspace-{ctx.path.parent.name}"}
    requests = value["requests"]
    last = requests[-1] if requests else None
    complete = (
        len(requests) if settled or (isinstance(last, dict) and "result" in last) else len(requests) - 1
    )
    start, new, entry = take_new(ctx.state, meta["sessionId"], requests, complete)
    out: list[Emitted] = []
    for index, request in enumerate(new, start):
        out.extend(chat_request(meta, cwd, request, entry, index))
    return out


def _tab(
    tab: Any, cwd: str | None, settled: bool, seen: datetime | None, ctx: StreamContext
) -> list[Emitted]:
    session = as_str(tab.get("tabId")) if isinstance(tab, dict) else None
    if session is None:
        return [IngestError("malformed_record", "chat tab without a tabId")]
    bubbles = [_bubble(b, seen) for b in as_list(tab.get("bubbles"))]
    complete = len(bubbles) if settled else len(bubbles) - 1
    start, new, entry = take_new(ctx.state, session, bubbles, complete)
    out: list[Emitted] = []
    title = as_str(tab.get("chatTitle"))
    if changed(entry, "info", [title, cwd]):
        out.append(SessionInfo(session=session, title=title, cwd=cwd))
    provenance = {"tab": session, "timestamp_source": "database_mtime"}
    out.extend(said_events(session, cwd, bubbles, range(start, start + len(new)), settled, provenance))
    return out


def _bubble(bubble: Any, seen: datetime | None) -> Said:
    if not isinstance(bubble, dict):
        return Said(user=True, text="")
    text = next(
        (v for k in ("text", "rawText", "initText") if (v := as_str(bubble.get(k))) and v.strip()), ""
    )
    return Said(str(bubble.get("type")).strip().lower() not in _ASSISTANT, text, seen)


class WindsurfAdapter(TaggedAdapter):
    """Normalize Windsurf chat-data snapshots."""

    harness = "windsurf"
    kinds = {CHATDATA_RECORD: _chatdata}
    untagged = "not a Windsurf chat-data snapshot"
