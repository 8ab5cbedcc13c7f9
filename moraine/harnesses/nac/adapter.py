"""NAC (source ``nac``): session snapshots read from its SQLite store -> normalized events.

Snapshots come from ``moraine.harnesses.nac.reader``: ``{record: "nac_session", session: {session_id, cwd,
model, created_at, updated_at}, messages: [OpenAI-style messages], episodes: [{id, thread_name, action, content,
created_at}]}``. Messages map like any chat log (an assistant message without tool calls ends the agent loop, so
its text is the final answer); NAC's MCP tool names such as ``mcp__moraine__search_sessions`` are normalized to the
Moraine tool name, the original spelling kept in provenance. Each worker thread is its own session,
``<session>:worker:<thread>``, linked to the parent: an episode is one turn, the action its input and the content
its final answer. Messages carry no time of their own: those first seen in a snapshot take its ``updated_at``.
The state remembers, per session, how many messages and which episodes were emitted.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.calls import remember_call
from moraine.harnesses._shared.chat import chat_event, function_call, said, tool_calls
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed, session_entry
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_list, as_str, parse_timestamp, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo, TerminalKind
from moraine.harnesses.nac.reader import SNAPSHOT_RECORD

__all__ = ["NacAdapter"]


def _snapshot(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return the not-yet-emitted events and session metadata of one session snapshot."""
    row = as_dict(data.get("session"))
    session = as_str(row.get("session_id"))
    messages = data.get("messages")
    if not session or not isinstance(messages, list):
        return [IngestError("malformed_record", "NAC snapshot without session_id or a messages list")]
    cwd = as_str(row.get("cwd"))
    model = as_str(row.get("model"))
    out: list[Emitted] = []
    seen = session_entry(ctx.state, "sessions", session)
    if changed(seen, "meta", [cwd, model]):
        started = read_timestamp(row.get("created_at"), out)
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
    seen.update(messages=max(emitted, len(messages)), episode=last_episode, workers=workers)
    return out


def _message(
    message: Any, index: int, session: str, cwd: str | None, model: str | None, ctx: StreamContext
) -> list[Emitted]:
    if not isinstance(message, dict):
        return [IngestError("malformed_record", f"session {session} message {index}: not a JSON object")]
    role = message.get("role")
    base = RecordEvents(session, None, cwd, provenance={"message_index": index, "role": role})
    content = parts_text(message.get("content"))
    said = chat_event(message, content, base, ctx.state, spelling=True)
    if said is not None:
        return [said]
    if role == "assistant":
        return list(_assistant(message, content, model, base, ctx))
    return [
        IngestError("unknown_record", f"session {session} message {index}: unknown role {str(role)[:40]!r}")
    ]


def _assistant(
    message: dict[str, Any], content: str, model: str | None, base: RecordEvents, ctx: StreamContext
) -> list[Event]:
    calls = tool_calls(message)
    events = said(message, "reasoning_text", content, model, base, final=not calls)
    for call in calls:
        name, call_id, arguments = function_call(call)
        raw_name = name or "unknown"
        remember_call(ctx.state, call_id, raw_name)  # the response names its tool the harness's way
        events.append(base.tool_call(raw_name, call_id, arguments, model))
    return events


def _episode(
    episode: dict[str, Any], parent: str, cwd: str | None, model: str | None, workers: list[str]
) -> list[Emitted]:
    thread = as_str(episode.get("thread_name")) or "worker"
    session = f"{parent}:worker:{thread}"
    out: list[Emitted] = []
    timestamp = read_timestamp(episode.get("created_at"), out)
    if thread not in workers:
        workers.append(thread)
        out.append(
            SessionInfo(
                session, title=thread, cwd=cwd, model=model, parent_session=parent, started_at=timestamp
            )
        )
    # The worker's turn: the action is its input, the content its final answer (an empty one just stops it).
    provenance = {"episode_id": episode.get("id"), "thread_name": thread}
    turn = RecordEvents(session, timestamp, cwd, sidechain=True, provenance=provenance)
    result = as_str(episode.get("content")) or ""
    out.append(turn.event(EventType.USER_INPUT, text=as_str(episode.get("action")) or "", starts_turn=True))
    out.append(
        turn.event(
            EventType.ASSISTANT_RESPONSE,
            text=result,
            model=model,
            is_final_answer=bool(result),
            terminal=True,
            terminal_kind=TerminalKind.FINAL_RESPONSE if result else TerminalKind.STOPPED,
        )
    )
    return out


class NacAdapter(TaggedAdapter):
    """Normalize NAC session snapshots (main sessions and their worker threads)."""

    harness = "nac"
    kinds = {SNAPSHOT_RECORD: _snapshot}
    untagged = "not a NAC session snapshot"
