"""DeepSeek Harness (``dsh``) session logs (``~/.dsh/sessions/<project>/<session>/session.jsonl``) -> events.

The first line is the header ``{type: "session", version: 0, id, createdAt (ms), cwd, parentSession,
agentPreset, delegationDepth}``; every other line is an event ``{type, seq, time (ms), data, surfaceOp}``. Read
here: ``user/message`` (``data`` is the message; ``source.kind`` other than ``user`` is injected text, recorded as
system), ``assistant/message`` (``data.message`` with ``source.model`` and ``reasoning``, ``text`` and ``tool-call``
blocks whose ``arguments`` are a JSON string; ``data.usage`` with ``inputTokens``, ``outputTokens``,
``cacheReadTokens``, ``cacheWriteTokens``, ``reasoningTokens``), ``tool/result`` (``tool-result`` blocks with
``toolCallId``, ``isError`` and content), ``turn/end`` (a reason other than ``completed`` ends the turn that way),
``session/title`` (the newest wins) and ``compaction/summary``. Streaming chunks (``assistant/chunk`` and the
packed ``*-chunks`` lines) repeat what ``assistant/message`` records and are skipped, as are the bookkeeping events.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.content_blocks import Blocks, message_events
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import parts_text
from moraine.harnesses._shared.usage import CAMEL_CASE_USAGE, attach_usage, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, read_timestamp
from moraine.harness_api.model import Emitted, EventType, IngestError, SessionInfo, TerminalKind

__all__ = ["DeepSeekHarnessAdapter"]

_VERSIONS = frozenset({0})
_BLOCKS = Blocks(
    call_types=frozenset({"tool-call"}),
    result_types=frozenset({"tool-result"}),
    id_keys=("id", "toolCallId"),
    input_keys=("arguments",),
)
_TURN_ENDS = {
    "cancelled": TerminalKind.CANCELLED,
    "canceled": TerminalKind.CANCELLED,
    "interrupted": TerminalKind.INTERRUPTED,
    "aborted": TerminalKind.INTERRUPTED,
    "error": TerminalKind.CRASHED,
    "failed": TerminalKind.CRASHED,
    "max-steps": TerminalKind.STOPPED,
}


class DeepSeekHarnessAdapter(ObjectAdapter):
    """Normalize DeepSeek Harness session logs."""

    harness = "deepseek-harness"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one log line."""
        kind = as_str(data.get("type"))
        out: list[Emitted] = []
        if kind == "session":
            return _header(data, ctx)
        session = ctx.state.get("session")
        if not session:
            return [IngestError("malformed_record", "DeepSeek Harness event before the session header")]
        read = _EVENTS.get(kind or "")
        if read is None:
            return []
        base = RecordEvents(session, read_timestamp(data.get("time"), out), ctx.state.get("cwd"))
        base.provenance = {"record_type": kind, "seq": data.get("seq")}
        out.extend(read(as_dict(data.get("data")), base, ctx))
        return out


def _header(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    session = as_str(data.get("id"))
    if not session:
        return [IngestError("malformed_record", "DeepSeek Harness header without an id")]
    cwd = as_str(data.get("cwd"))
    ctx.state.update(session=session, cwd=cwd)
    out: list[Emitted] = []
    if data.get("version") not in _VERSIONS:
        detail = (
            f"DeepSeek Harness log version {str(data.get('version'))[:20]!r} is unknown; read as version 0"
        )
        out.append(IngestError("unknown_format_version", detail))
    started = read_timestamp(data.get("createdAt"), out)
    parent = as_str(data.get("parentSession"))
    out.append(SessionInfo(session, cwd=cwd, started_at=started, parent_session=parent))
    return out


def _user(message: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    source = as_str(as_dict(message.get("source")).get("kind"))
    if source not in (None, "user"):
        text = parts_text(message.get("content"), "text")
        return [base.event(EventType.SYSTEM, text=text, provenance={"source": source})]
    return message_events(message, _BLOCKS, base, None, ctx.state)


def _assistant(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    message = as_dict(data.get("message"))
    model = as_str(as_dict(message.get("source")).get("model"))
    out = message_events(message, _BLOCKS, base, model, ctx.state)
    attach_usage(out, token_usage(data.get("usage"), CAMEL_CASE_USAGE))
    return out


def _tool_result(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    return message_events(as_dict(data.get("message")), _BLOCKS, base, None, ctx.state)


def _turn_end(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    reason = as_str(as_dict(data.get("reason")).get("kind"))
    ending = _TURN_ENDS.get(reason or "")
    if ending is None:
        return []  # completed: the turn's answer already ended it
    return [base.event(EventType.RUNTIME, text=reason or "", terminal=True, terminal_kind=ending)]


def _title(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    title = as_str(data.get("title"))
    return [SessionInfo(base.session, title=title)] if title else []


def _compaction(data: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    return [base.event(EventType.COMPACTION, text=parts_text(data.get("summary"), "text"))]


_EVENTS = {
    "user/message": _user,
    "assistant/message": _assistant,
    "tool/result": _tool_result,
    "turn/end": _turn_end,
    "session/title": _title,
    "compaction/summary": _compaction,
}
