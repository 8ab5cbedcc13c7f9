"""Turn store records into the contract's objects (session refs, turn summaries, event summaries, content)."""

from __future__ import annotations

import json
from typing import Any

from moraine.ids import event_id, session_id, turn_id
from moraine.placeholders import ENCRYPTED_REASONING_PLACEHOLDER
from moraine.store.reads.events import EventDetail, EventSummary
from moraine.store.reads.labels import session_title
from moraine.store.reads.sessions import SessionRecord
from moraine.resume import resume_command
from moraine.store.reads.timestamps import format_timestamp
from moraine.store.reads.turns import TurnRecord

__all__ = [
    "event_content",
    "event_summary",
    "opened_session",
    "opened_turn",
    "session_brief",
    "session_ref",
    "turn_digest",
    "turn_summary",
]

Json = dict[str, Any]


def session_ref(s: SessionRecord) -> Json:
    """Return the session object of a search hit."""
    return {
        "id": session_id(s.key),
        "title": session_title(s.title, s.first_user_message),
        "source": s.source,
        "harness": s.harness,
        "started_at": format_timestamp(s.started_at),
        "updated_at": format_timestamp(s.updated_at),
        "completed": s.completed,
    }


def session_brief(s: SessionRecord) -> Json:
    """Return the parent-session object of an opened turn or event."""
    return {
        "id": session_id(s.key),
        "title": session_title(s.title, s.first_user_message),
        "source": s.source,
        "harness": s.harness,
    }


def opened_session(s: SessionRecord) -> Json:
    """Return the session object of ``open(session)``, with the harness's own ID and its resume command."""
    return {
        **session_ref(s),
        "turn_count": s.turn_count,
        "event_count": s.event_count,
        "native_id": s.native_id,
        "resume_command": resume_command(s.harness, s.native_id, s.cwd),
    }


def _excerpt(key: int, seq: int | None, text: str, truncated: bool) -> Json | None:
    if seq is None:
        return None
    return {"event_id": event_id(key, seq), "text": text, "truncated": truncated}


def turn_digest(t: TurnRecord) -> Json:
    """Return user input / final response excerpts, tools called and event types of a turn."""
    return {
        "user_input": _excerpt(t.key, t.user_input_seq, t.user_input_text, t.user_input_truncated),
        # Never a final response for an unfinished turn (the interface document: null while incomplete).
        "final_response": _excerpt(t.key, t.final_seq, t.final_text, t.final_truncated)
        if t.completed
        else None,
        "tools_called": list(dict.fromkeys(t.tools_called)),
        "event_types": list(dict.fromkeys(e for e in t.event_types if e != "unknown")),
    }


def _terminal_id(t: TurnRecord) -> str | None:
    return event_id(t.key, t.terminal_seq) if t.terminal_seq is not None else None


def turn_summary(t: TurnRecord) -> Json:
    """Return the compact turn summary used in session pages."""
    return {
        "id": turn_id(t.key, t.turn_seq),
        "ordinal": t.turn_seq,
        "completed": t.completed,
        "terminal_event_id": _terminal_id(t),
        "event_count": t.event_count,
        "started_at": format_timestamp(t.started_at),
        "updated_at": format_timestamp(t.updated_at),
        **turn_digest(t),
        "open": {"turn_id": turn_id(t.key, t.turn_seq), "terminal_event_id": _terminal_id(t)},
    }


def opened_turn(t: TurnRecord) -> Json:
    """Return the turn object of ``open(turn)``."""
    return {
        "id": turn_id(t.key, t.turn_seq),
        "session_id": session_id(t.key),
        "ordinal": t.turn_seq,
        "completed": t.completed,
        "terminal_event_id": _terminal_id(t),
        "event_count": t.event_count,
        "started_at": format_timestamp(t.started_at),
        "updated_at": format_timestamp(t.updated_at),
    }


def event_summary(e: EventSummary) -> Json:
    """Return the compact event summary used in turn pages (encrypted reasoning shows a placeholder)."""
    return {
        "id": event_id(e.key, e.seq),
        "ordinal": e.ordinal,
        "type": e.type,
        "timestamp": format_timestamp(e.timestamp),
        "terminal": e.terminal,
        "tool_name": e.tool_name,
        "model": e.model,
        "summary": ENCRYPTED_REASONING_PLACEHOLDER if e.encrypted else e.summary,
        "truncated": False if e.encrypted else e.summary_truncated,
    }


def _arguments(raw: str | None) -> Any:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _call_text(name: str | None, arguments: Any) -> str:
    if isinstance(arguments, dict):
        inner = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in arguments.items())
    elif arguments is None:
        inner = ""
    else:
        inner = json.dumps(arguments, ensure_ascii=False)
    return f"{name or 'tool'}({inner})"


def event_content(e: EventDetail) -> Json:
    """Return the full content of an event, shaped by its content format (never truncated)."""
    if e.content_format == "tool_call" or e.type == "tool_call":
        arguments = _arguments(e.arguments)
        return {
            "format": "tool_call",
            "tool_name": e.tool_name,
            "arguments": arguments,
            "text": e.text or _call_text(e.tool_name, arguments),
            "truncated": False,
        }
    if e.content_format == "tool_response" or e.type == "tool_response":
        return {
            "format": "tool_response",
            "tool_name": e.tool_name,
            "exit_code": e.exit_code,
            "text": e.text,
            "truncated": False,
        }
    if e.content_format == "reasoning" or e.type == "reasoning":
        return {"format": "reasoning", "text": e.text, "encrypted": e.encrypted, "truncated": False}
    return {"format": "text", "text": e.text, "truncated": False}
