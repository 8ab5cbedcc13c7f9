"""Zed (source ``zed``): agent thread snapshots from ``threads.db`` -> normalized events.

Records come from ``threads_reader``: one snapshot of a thread each time it changed. The adapter remembers, per
thread, how many of its messages it emitted, so a re-read thread yields only its new messages; while a thread is
unsettled (updated moments ago) its last message waits, as it may still be streaming. The thread's id is the
session id, its ``summary`` (or the document's ``title``) the title, its first folder the working directory, its
``parent_id`` the parent thread, the document's ``model.model`` the model.

A user message opens a turn. An agent message gives its thinking, text and tool calls, then the results of those
calls (Zed keeps them in the agent message); an agent message that calls no tool ends the turn with its last text as
the answer. Zed's tools name files by a path that starts with the project folder's name (``kiln/src/main.rs``), so
a tool call whose path does so is placed in the folder's parent.
"""

from __future__ import annotations

import posixpath
from typing import Any

from moraine.harnesses.zed.messages import Said, thread_messages
from moraine.harnesses.zed.threads_reader import THREAD_RECORD
from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.memory import changed, session_entry
from moraine.harnesses._shared.records import TaggedAdapter
from moraine.harnesses._shared.usage import read_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, parse_timestamp, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["ZedAdapter"]

_PATH_KEYS = ("path", "cd", "source_path", "destination_path")


def _thread(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    thread = as_dict(data.get("thread"))
    document = as_dict(data.get("document"))
    session = as_str(thread.get("id"))
    if not session or not isinstance(document.get("messages"), list):
        return [IngestError("malformed_record", "Zed thread snapshot without an id or messages")]
    known = session_entry(ctx.state, "threads", session)
    out: list[Emitted] = []
    cwd = _first_folder(thread.get("folder_paths"))
    model = as_str(as_dict(document.get("model")).get("model"))
    info = SessionInfo(
        session=session,
        title=as_str(thread.get("summary")) or as_str(document.get("title")),
        cwd=cwd,
        model=model,
        started_at=parse_timestamp(thread.get("created_at"))[0],
        parent_session=as_str(thread.get("parent_id")),
    )
    if changed(known, "info", [info.title, info.cwd, info.model, info.parent_session]):
        out.append(info)
    timestamp = read_timestamp(thread.get("updated_at"), out)
    messages = thread_messages(document)
    ready = len(messages)
    if data.get("settled") is False:  # the last message may still be streaming: it waits
        ready = max((i for i, said in enumerate(messages) if said is not None), default=0)
    stored = known.get("emitted")
    emitted = stored if isinstance(stored, int) else 0
    base = RecordEvents(session, timestamp, cwd, provenance={"thread_updated_at": thread.get("updated_at")})
    for said in messages[emitted:ready]:
        if said is not None:
            out.extend(_said(said, base, model, ctx.state))
    known["emitted"] = max(emitted, ready)
    return out


def _said(said: Said, base: RecordEvents, model: str | None, state: dict[str, Any]) -> list[Emitted]:
    """Return a message's events, then the responses to tool calls it carries (legacy threads: on the user side)."""
    replies: list[Emitted] = []
    if said.role == "user":
        text = "\n".join(value for kind, value in said.parts if kind == "text" and value).strip()
        if text:
            replies.append(base.event(EventType.USER_INPUT, text=text, starts_turn=True))
    else:
        replies.extend(_agent(said, base, model, state))
    for result in said.results:
        name = result["name"] or recall_call(state, result["id"])
        replies.append(
            base.canonical_response(name, result["id"], result["text"], tool_error=result["error"])
        )
    return replies


def _agent(said: Said, base: RecordEvents, model: str | None, state: dict[str, Any]) -> list[Emitted]:
    events: list[Event] = []
    for kind, value in said.parts:
        if kind == "text" and value:
            events.append(base.answer(value, model))
        elif kind in ("thinking", "redacted") and value:
            events.append(base.reasoning(value, model, encrypted=kind == "redacted"))
        elif kind == "call":
            events.append(_call(value, base, model, state))
    if said.usage and events:
        events[0].usage = read_usage(
            said.usage,
            input="input_tokens",
            output="output_tokens",
            cache_read="cache_read_input_tokens",
            cache_write="cache_creation_input_tokens",
        )
    return end_message(events)


def _call(call: dict[str, Any], base: RecordEvents, model: str | None, state: dict[str, Any]) -> Event:
    call_id = as_str(call.get("id"))
    event = base.tool_call(as_str(call.get("name")), call_id, call.get("input"), model, calls=state)
    arguments = as_dict(call.get("input"))
    folder = base.cwd
    if folder:
        name = posixpath.basename(folder.rstrip("/"))
        paths = [as_str(arguments.get(key)) for key in _PATH_KEYS]
        if any(p and (p == name or p.startswith(name + "/")) for p in paths):
            event.cwd = posixpath.dirname(folder.rstrip("/"))
    return event


def _first_folder(paths: Any) -> str | None:
    text = as_str(paths)
    if text is None:
        return None
    for separator in ("\n", "\x00"):
        text = text.partition(separator)[0]
    return text.strip() or None


class ZedAdapter(TaggedAdapter):
    """Normalize the thread snapshots ``threads_reader`` reads."""

    harness = "zed"
    kinds = {THREAD_RECORD: _thread}
    untagged = "not a Zed thread snapshot"
