"""Grok Build chat histories (``~/.grok/sessions/<cwd, URL-encoded>/<id>/chat_history.jsonl``) -> events.

Two versions of the history, one row a line, with ``summary.json`` beside it (``{info: {id, cwd},
generated_title, session_summary, created_at, updated_at, current_model_id, parent_session_id}``):

- current (``chat_format_version`` 1), rows typed by ``type``: ``user`` (content parts; ``prompt_index`` on a
  typed prompt, ``synthetic_reason`` on injected context and on ``interjection``s typed while the agent works),
  ``reasoning`` (``summary`` parts), ``assistant`` (``content``, ``tool_calls`` ``[{id, name, arguments}]``,
  ``model_id``), ``tool_result`` (``tool_call_id``, ``content``), ``backend_tool_call`` (a server-side tool:
  ``kind: {tool_type, action, id, status}``) and ``system`` (the system prompt, not indexed);
- legacy (version 0), chat-completions rows typed by ``role``: ``user``, ``assistant`` (with
  ``reasoning_content`` and ``tool_calls`` ``[{id, function: {name, arguments}}]``), ``tool``, ``system``.

Context blocks Grok injects into prompts (``<user_info>``, ``<git_status>``, ``<system-reminder>``,
``<agent_skills>``, ``<mcp_servers>``) are removed from the prompt text. Rows carry no time: an event takes the
session's ``updated_at`` from ``summary.json`` when first read (said in its provenance). An assistant row without
tool calls ends the agent loop: its text is the turn's answer. A ``chat_format_version`` other than 0 and 1 is
reported once per version of ``summary.json`` (its rows are still read as far as they are understood).
"""

from __future__ import annotations

import re
from typing import Any

from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.sidecar import fresh_sidecar
from moraine.harnesses._shared.text import parts_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text
from moraine.harnesses._shared.fields import parse_json_string, parse_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["GrokAdapter"]

_CONTEXT_BLOCKS = re.compile(
    r"<(user_info|git_status|system-reminder|agent_skills|mcp_servers)>.*?(?:</\1>|\Z)", re.DOTALL
)
_KNOWN_VERSIONS = (None, 0, 1)  # absent: a summary older than the field
_LEGACY_KINDS = {"user": "user", "assistant": "assistant", "tool": "tool_result", "system": "system"}


class GrokAdapter(ObjectAdapter):
    """Normalize Grok Build chat history rows (either version)."""

    harness = "grok"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events and session metadata of one history row."""
        out: list[Emitted] = list(_summary(ctx))
        session = as_str(ctx.state.get("session")) or ctx.path.parent.name
        when, _ = parse_timestamp(ctx.state.get("updated_at"))
        record = RecordEvents(
            session,
            when,
            as_str(ctx.state.get("cwd")),
            provenance={"timestamp_source": "summary_updated_at"} if when else {},
        )
        kind = as_str(data.get("type")) or _LEGACY_KINDS.get(str(data.get("role")))
        if kind == "user":
            out.extend(_user(data, record))
        elif kind == "reasoning":
            text = _reasoning(data)
            if text:
                out.append(record.reasoning(text))
        elif kind == "assistant":
            out.extend(_assistant(data, record))
        elif kind == "tool_result":
            content = data.get("content")
            text = output_text(content) if content is not None else ""
            out.append(record.canonical_response(None, as_str(data.get("tool_call_id")), text))
        elif kind == "backend_tool_call":
            out.extend(_backend_call(as_dict(data.get("kind")), record))
        return out


def _summary(ctx: StreamContext) -> list[Emitted]:
    """Return what ``summary.json`` says of the session when it is new or changed."""
    summary = fresh_sidecar(ctx.path.with_name("summary.json"), ctx.state, "summary")
    if summary is None:
        return []
    info = as_dict(summary.get("info"))
    session = as_str(info.get("id")) or as_str(ctx.state.get("session")) or ctx.path.parent.name
    ctx.state["session"] = session
    cwd = as_str(info.get("cwd"))
    if cwd:
        ctx.state["cwd"] = cwd
    updated = as_str(summary.get("updated_at")) or as_str(summary.get("last_active_at"))
    if updated:
        ctx.state["updated_at"] = updated
    started, _ = parse_timestamp(summary.get("created_at"))
    version = summary.get("chat_format_version")
    unknown = (
        []
        if version in _KNOWN_VERSIONS
        else [IngestError("unknown_format_version", f"chat_format_version {version!r}")]
    )
    return [
        *unknown,
        SessionInfo(
            session=session,
            title=as_str(summary.get("generated_title")) or as_str(summary.get("session_summary")),
            cwd=cwd,
            model=as_str(summary.get("current_model_id")),
            started_at=started,
            parent_session=as_str(summary.get("parent_session_id")),
        ),
    ]


def _user(data: dict[str, Any], record: RecordEvents) -> list[Event]:
    reason = as_str(data.get("synthetic_reason"))
    if reason and reason != "interjection":
        return []  # project instructions and other context Grok adds on its own
    text = _CONTEXT_BLOCKS.sub("", parts_text(data.get("content"), None)).strip()
    if not text:
        return []
    extra = {"synthetic_reason": reason} if reason else {}
    return [record.event(EventType.USER_INPUT, text=text, starts_turn=reason is None, provenance=extra)]


def _reasoning(data: dict[str, Any]) -> str:
    parts = [as_dict(part).get("text") for key in ("summary", "content") for part in as_list(data.get(key))]
    return "\n\n".join(part.strip() for part in parts if isinstance(part, str) and part.strip())


def _assistant(data: dict[str, Any], record: RecordEvents) -> list[Emitted]:
    model = as_str(data.get("model_id"))
    events: list[Event] = []
    thinking = as_str(as_dict(data.get("reasoning")).get("text")) or as_str(data.get("reasoning_content"))
    if thinking:
        events.append(record.reasoning(thinking, model))
    content = as_str(data.get("content"))
    if content:
        events.append(record.answer(content, model))
    for call in as_list(data.get("tool_calls")):
        call = as_dict(call)
        function = as_dict(call.get("function"))
        name = as_str(call.get("name")) or as_str(function.get("name"))
        arguments = parse_json_string(call.get("arguments", function.get("arguments")))
        events.append(
            record.tool_call(
                name, as_str(call.get("id")) or as_str(call.get("tool_call_id")), arguments, model
            )
        )
    return end_message(events)


def _backend_call(kind: dict[str, Any], record: RecordEvents) -> list[Event]:
    name = as_str(kind.get("tool_type")) or "backend_tool"
    call = record.tool_call(name, as_str(kind.get("id")), kind.get("action", kind.get("input")))
    status = as_str(kind.get("status"))
    if status is None:
        return [call]
    return [
        call,
        record.response_to(call, status, tool_error=status == "failed", provenance={"status": status}),
    ]
