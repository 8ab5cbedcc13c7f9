"""NAC (source ``nac``): session snapshots read from its SQLite store -> normalized events.

Snapshots come from ``moraine.ingest.readers.sqlite_nac``: ``{record: "nac_session", session: {session_id, cwd,
model, created_at, updated_at}, messages: [OpenAI-style messages], episodes: [{id, thread_name, action, content,
created_at}]}``. Messages map like any chat log (an assistant message without tool calls ends the agent loop, so
its text is the final answer); NAC's MCP tool names such as ``mcp__moraine__search_sessions`` are normalized to the
Moraine tool name, the original spelling kept in provenance. Each worker thread is its own session,
``<session>:worker:<thread>``, linked to the parent: an episode is one turn, the action its input and the content
its final answer. Messages carry no time of their own: those first seen in a snapshot take its ``updated_at``.
The state remembers, per session, how many messages and which episodes were emitted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from moraine.ingest.adapters._calls import recall_call, remember_call
from moraine.ingest.adapters._events import RecordEvents
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.adapters.fields import (
    as_dict,
    as_int,
    as_list,
    as_str,
    canonical_tool_name,
    parse_json_string,
    parse_timestamp,
)
from moraine.ingest.model import (
    ContentFormat,
    Emitted,
    Event,
    EventType,
    IngestError,
    RawRecord,
    SessionInfo,
    TerminalKind,
)
from moraine.ingest.readers.sqlite_nac import SNAPSHOT_RECORD

__all__ = ["NacAdapter"]


class NacAdapter:
    """Normalize NAC session snapshots (main sessions and their worker threads)."""

    harness = "nac"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the not-yet-emitted events and session metadata of one session snapshot."""
        data = record.data
        if not isinstance(data, dict) or data.get("record") != SNAPSHOT_RECORD:
            return [IngestError("unknown_record", "not a NAC session snapshot")]
        row = as_dict(data.get("session"))
        session = as_str(row.get("session_id"))
        messages = data.get("messages")
        if not session or not isinstance(messages, list):
            return [IngestError("malformed_record", "NAC snapshot without session_id or a messages list")]
        sessions = ctx.state.setdefault("sessions", {})
        seen = as_dict(sessions.get(session))
        out: list[Emitted] = []
        cwd = as_str(row.get("cwd"))
        model = as_str(row.get("model"))
        signature = [cwd, model]
        if seen.get("meta") != signature:
            started, error = parse_timestamp(row.get("created_at"))
            out.extend([error] if error is not None else [])
            out.append(SessionInfo(session=session, cwd=cwd, model=model, started_at=started))
        emitted = as_int(seen.get("messages")) or 0
        # Messages carry no time of their own: new ones take the session's updated_at of this snapshot.
        updated, _ = parse_timestamp(row.get("updated_at"))
        for index in range(emitted, len(messages)):
            for item in _message(messages[index], index, session, cwd, model, ctx):
                if isinstance(item, Event):
                    item.timestamp = updated
                    item.provenance["timestamp_source"] = "session_updated_at"
                out.append(item)
        last_episode = as_int(seen.get("episode")) or 0
        workers: list[str] = list(as_list(seen.get("workers")))
        for episode in as_list(data.get("episodes")):
            episode_id = as_int(as_dict(episode).get("id"))
            if episode_id is None or episode_id <= last_episode:
                continue
            out.extend(_episode(as_dict(episode), session, cwd, model, workers))
            last_episode = episode_id
        sessions[session] = {
            "meta": signature,
            "messages": max(emitted, len(messages)),
            "episode": last_episode,
            "workers": workers,
        }
        return out


def _message(
    message: Any, index: int, session: str, cwd: str | None, model: str | None, ctx: StreamContext
) -> list[Emitted]:
    if not isinstance(message, dict):
        return [IngestError("malformed_record", f"session {session} message {index}: not a JSON object")]
    role = message.get("role")
    base = RecordEvents(session, None, cwd, provenance={"message_index": index, "role": role})
    event = base.event

    content = _text(message.get("content"))
    if role == "system":
        return [event(EventType.SYSTEM, text=content)]
    if role == "user":
        return [event(EventType.USER_INPUT, text=content, starts_turn=bool(content))]
    if role == "tool":
        call_id = as_str(message.get("tool_call_id"))
        raw_name = as_str(message.get("name")) or recall_call(ctx.state, call_id)
        name, is_moraine = canonical_tool_name(raw_name) if raw_name else (None, False)
        return [
            event(
                EventType.TOOL_RESPONSE,
                text=content,
                content_format=ContentFormat.TOOL_RESPONSE,
                tool_name=name,
                tool_call_id=call_id,
                is_moraine_tool=is_moraine,
                provenance={"original_tool_name": raw_name} if raw_name and raw_name != name else {},
            )
        ]
    if role == "assistant":
        return list(_assistant(message, content, model, base, ctx))
    return [
        IngestError("unknown_record", f"session {session} message {index}: unknown role {str(role)[:40]!r}")
    ]


def _assistant(
    message: dict[str, Any], content: str, model: str | None, base: RecordEvents, ctx: StreamContext
) -> list[Event]:
    event = base.event
    events: list[Event] = []
    reasoning = as_str(message.get("reasoning_text")) or as_str(message.get("reasoning_content"))
    if reasoning:
        events.append(
            event(EventType.REASONING, text=reasoning, model=model, content_format=ContentFormat.REASONING)
        )
    calls = [c for c in as_list(message.get("tool_calls")) if isinstance(c, dict)]
    if content:
        final = not calls
        events.append(
            event(
                EventType.ASSISTANT_RESPONSE,
                text=content,
                model=model,
                is_final_answer=final,
                terminal=final,
                terminal_kind=TerminalKind.FINAL_RESPONSE if final else None,
            )
        )
    for call in calls:
        function = as_dict(call.get("function"))
        raw_name = as_str(function.get("name")) or "unknown"
        call_id = as_str(call.get("id"))
        remember_call(ctx.state, call_id, raw_name)  # the response names its tool the harness's way
        events.append(base.tool_call(raw_name, call_id, parse_json_string(function.get("arguments")), model))
    return events


def _episode(
    episode: dict[str, Any], parent: str, cwd: str | None, model: str | None, workers: list[str]
) -> list[Emitted]:
    thread = as_str(episode.get("thread_name")) or "worker"
    session = f"{parent}:worker:{thread}"
    out: list[Emitted] = []
    timestamp, error = parse_timestamp(episode.get("created_at"))
    if error is not None:
        out.append(error)
    if thread not in workers:
        workers.append(thread)
        out.append(
            SessionInfo(
                session=session,
                title=thread,
                cwd=cwd,
                model=model,
                parent_session=parent,
                started_at=timestamp,
            )
        )
    provenance = {"episode_id": episode.get("id"), "thread_name": thread}
    action = as_str(episode.get("action")) or ""
    result = as_str(episode.get("content")) or ""
    out.append(
        Event(
            session=session,
            type=EventType.USER_INPUT,
            text=action,
            timestamp=timestamp,
            cwd=cwd,
            starts_turn=True,
            sidechain=True,
            provenance=dict(provenance),
        )
    )
    out.append(
        Event(
            session=session,
            type=EventType.ASSISTANT_RESPONSE,
            text=result,
            timestamp=timestamp,
            cwd=cwd,
            model=model,
            is_final_answer=bool(result),
            terminal=True,
            terminal_kind=TerminalKind.FINAL_RESPONSE if result else TerminalKind.STOPPED,
            sidechain=True,
            provenance=dict(provenance),
        )
    )
    return out


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(
        part["text"]
        for part in as_list(content)
        if isinstance(part, dict) and isinstance(part.get("text"), str)
    )
