"""A tiny adapter for pipeline tests: one JSON object per line maps field-for-field onto an Event or SessionInfo.

``{"session": "s1", "type": "user_input", "text": "hi", "ts": "2026-01-01T00:00:00Z", "starts_turn": true}``;
``{"session": "s1", "info": {"title": "..."}}``; a line ``{"error": "reason"}`` yields an IngestError.
Records that are not objects, or whose fields have the wrong types, yield IngestErrors (adapters never raise).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import (
    Emitted,
    Event,
    EventType,
    IngestError,
    RawRecord,
    SessionInfo,
    TerminalKind,
)


class ToyAdapter:
    harness = "codex"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        data = record.data
        if not isinstance(data, dict):
            return [IngestError("not_an_object", f"record is {type(data).__name__}")]
        if "error" in data:
            return [IngestError(str(data["error"]), "toy error")]
        session = data.get("session")
        if not isinstance(session, str):
            return [IngestError("no_session", "session must be a string")]
        ctx.state["records"] = int(ctx.state.get("records", 0)) + 1
        if "info" in data:
            info = data["info"]
            if not isinstance(info, dict):
                return [IngestError("bad_info", "info must be an object")]
            return [SessionInfo(session=session, **{k: v for k, v in info.items() if isinstance(v, str)})]
        try:
            return [_event(session, data)]
        except (ValueError, TypeError) as exc:
            return [IngestError("bad_field", str(exc))]


def _event(session: str, data: dict[str, Any]) -> Event:
    ts = data.get("ts")
    kind = data.get("terminal_kind")
    return Event(
        session=session,
        type=EventType(data.get("type", "user_input")),
        text=_str(data.get("text", "")),
        timestamp=datetime.fromisoformat(ts) if isinstance(ts, str) else None,
        starts_turn=bool(data.get("starts_turn", False)),
        terminal=bool(data.get("terminal", False)),
        terminal_kind=TerminalKind(kind) if kind else None,
        is_final_answer=bool(data.get("final", False)),
        tool_name=data.get("tool") if isinstance(data.get("tool"), str) else None,
        arguments=data.get("args"),
        model=data.get("model") if isinstance(data.get("model"), str) else None,
        cwd=data.get("cwd") if isinstance(data.get("cwd"), str) else None,
        provenance={"line": data.get("prov", "")},
    )


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"text must be a string, not {type(value).__name__}")
    return value
