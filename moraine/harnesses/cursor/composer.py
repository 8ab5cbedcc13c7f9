"""Cursor IDE chat store (source ``cursor-sqlite``): composer snapshots -> normalized events.

A snapshot (built by ``moraine.harnesses.cursor.reader``) is ``{record: "cursor_composer", composer_id,
composer, bubbles: [{id, type, value, settled, error}]}``. The composer is the session: its ``name`` is the title,
``subtitle`` the summary, ``workspaceIdentifier.uri.fsPath`` the working directory. Bubble type 1 is user input;
type 2 is the assistant: ``thinking`` -> reasoning, ``toolFormerData`` -> a tool call (and its result once the tool
finished), ``text`` -> a response. Cursor stamps ``turnDurationMs`` on the bubble that ends a turn, so that
bubble's text is the final answer. The state remembers how many bubbles of each composer were emitted.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed, session_entry
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_str,
    json_text,
    parse_json_string,
    parse_timestamp,
    read_timestamp,
)
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["SNAPSHOT_RECORD", "normalize_composer"]

SNAPSHOT_RECORD = "cursor_composer"
_FINISHED_TOOL = frozenset({"completed", "error", "cancelled", "aborted"})


def normalize_composer(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return session metadata and the events of the composer's bubbles not emitted before."""
    session = as_str(data.get("composer_id"))
    bubbles = data.get("bubbles")
    if not session or not isinstance(bubbles, list):
        return [IngestError("malformed_record", "cursor composer snapshot without composer_id or bubbles")]
    known = session_entry(ctx.state, "composers", session)
    info = _session_info(session, as_dict(data.get("composer")))
    out: list[Emitted] = [info] if changed(known, "info", [info.title, info.summary, info.cwd]) else []
    emitted = known.get("emitted", 0) if isinstance(known.get("emitted"), int) else 0
    cwd = info.cwd
    for bubble in bubbles[emitted:]:
        if not isinstance(bubble, dict) or not bubble.get("settled", True):
            break
        emitted += 1
        if bubble.get("error"):
            out.append(
                IngestError("malformed_row", f"bubble {bubble.get('id')} of {session}: {bubble['error']}")
            )
            continue
        out.extend(_bubble(session, bubble, cwd))
    known["emitted"] = emitted
    return out


def _session_info(session: str, composer: dict[str, Any]) -> SessionInfo:
    started, _ = parse_timestamp(composer.get("createdAt"))
    workspace = as_dict(as_dict(composer.get("workspaceIdentifier")).get("uri"))
    return SessionInfo(
        session=session,
        title=as_str(composer.get("name")),
        summary=as_str(composer.get("subtitle")),
        cwd=as_str(workspace.get("fsPath")),
        started_at=started,
    )


def _bubble(session: str, bubble: dict[str, Any], cwd: str | None) -> list[Emitted]:
    value = bubble.get("value")
    if not isinstance(value, dict):
        return [IngestError("malformed_row", f"bubble {bubble.get('id')} of {session}: not a JSON object")]
    out: list[Emitted] = []
    timestamp = read_timestamp(value.get("createdAt"), out)
    provenance = {"bubble_id": bubble.get("id"), "bubble_type": value.get("type", bubble.get("type"))}
    if as_str(value.get("requestId")):
        provenance["request_id"] = value["requestId"]
    model = as_str(as_dict(value.get("modelInfo")).get("modelName"))
    model = None if model == "default" else model

    base = RecordEvents(session, timestamp, cwd, provenance=provenance)
    kind = value.get("type", bubble.get("type"))
    text = value.get("text") if isinstance(value.get("text"), str) else ""
    if kind == 1:
        out.append(base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text)))
        return out
    if kind != 2:
        out.append(IngestError("unknown_record", f"bubble {bubble.get('id')} of {session}: type {kind!r}"))
        return out
    thinking = as_str(as_dict(value.get("thinking")).get("text"))
    if thinking:
        out.append(base.reasoning(thinking, model))
    tool = value.get("toolFormerData")
    if isinstance(tool, dict):
        out.extend(_tool(tool, base, model))
    if text:
        out.append(base.answer(text, model, final=isinstance(value.get("turnDurationMs"), int | float)))
    return out


def _tool(tool: dict[str, Any], base: RecordEvents, model: str | None) -> list[Event]:
    call_id = as_str(tool.get("toolCallId"))
    call_id = call_id.splitlines()[0] if call_id else None
    arguments = parse_json_string(
        tool.get("params") if tool.get("params") not in (None, "") else tool.get("rawArgs")
    )
    status = as_str(tool.get("status"))
    call = base.tool_call(as_str(tool.get("name")), call_id, arguments, model)
    if status not in _FINISHED_TOOL:
        return [call]
    failed = status != "completed"
    output = tool.get("error") if failed and tool.get("error") is not None else tool.get("result")
    text = json_text(parse_json_string(output)) if output is not None else ""
    return [call, base.response_to(call, text, tool_error=failed, provenance={"status": status})]
