"""Poolside Agent CLI (``pool``) trajectories (``trajectories/trajectory-<type>_<uuid>.ndjson``) -> events.

Each line is one event ``{id, step_id, timestamp, type, <type with dots as underscores>: {...}}``. Read here:
``session.start`` (``working_directories``: the cwd), ``session.input`` (a prompt: a new turn),
``thought.end`` (reasoning), ``tool_call.parsed`` (``id``, ``name``, ``args``), ``tool_call.result`` (``id``,
``tool_name``, ``observation``, ``is_error``, ``execution_error_kind``), ``tool_call.inference.start`` (the
model) and ``.end`` (token counts, put on the next model event), ``assistant_message.end`` (the response that
closes the turn: its final answer), ``session.exit`` and ``session.error`` (the session ends). Start markers and
unknown events stay out of the index.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.usage import UsageKeys, attach_usage, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, SessionInfo, TerminalKind, TokenUsage

__all__ = ["PoolsideAdapter"]

_USAGE = UsageKeys(cache_write=("cache_write_input_tokens",), reasoning=())


class PoolsideAdapter(ObjectAdapter):
    """Normalize Poolside trajectories."""

    harness = "poolside"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one trajectory event."""
        kind = as_str(data.get("type")) or ""
        session = ctx.state.setdefault("session", ctx.path.stem.removeprefix("trajectory-"))
        out: list[Emitted] = []
        base = RecordEvents(session, read_timestamp(data.get("timestamp"), out), ctx.state.get("cwd"))
        base.provenance = {"record_type": kind, "id": data.get("id"), "step_id": data.get("step_id")}
        read = _EVENTS.get(kind)
        if read is not None:
            said = read(as_dict(data.get(kind.replace(".", "_"))), base, ctx)
            pending = ctx.state.get("usage")
            if pending and any(isinstance(e, Event) and e.type in _MODEL_EVENTS for e in said):
                attach_usage(said, TokenUsage(**pending))
                ctx.state.pop("usage")
            out.extend(said)
        return out


_MODEL_EVENTS = frozenset({EventType.REASONING, EventType.TOOL_CALL, EventType.ASSISTANT_RESPONSE})


def _start(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    folders = [f for f in as_list(payload.get("working_directories")) if isinstance(f, str) and f]
    cwd = folders[0] if folders else as_str(payload.get("workspace"))
    ctx.state["cwd"] = cwd
    return [SessionInfo(base.session, cwd=cwd, started_at=base.timestamp)]


def _input(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    prompt = as_str(payload.get("prompt")) or ""
    mode = as_str(payload.get("mode"))
    return [
        base.event(EventType.USER_INPUT, text=prompt, starts_turn=bool(prompt), provenance={"mode": mode})
    ]


def _thought(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    thought = as_str(payload.get("thought"))
    return [base.reasoning(thought, ctx.state.get("model"))] if thought else []


def _call(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    call_id = as_str(payload.get("id"))
    call = base.tool_call(
        as_str(payload.get("name")), call_id, payload.get("args"), ctx.state.get("model"), calls=ctx.state
    )
    return [call]


def _result(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    call_id = as_str(payload.get("id"))
    error = payload.get("is_error") is True
    kind = as_str(payload.get("execution_error_kind"))
    return [
        base.canonical_response(
            as_str(payload.get("tool_name")) or recall_call(ctx.state, call_id),
            call_id,
            as_str(payload.get("observation")) or "",
            tool_error=error,
            provenance={"error_kind": kind} if kind else {},
        )
    ]


def _inference_start(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    model = as_str(as_dict(payload.get("chat_completion_request")).get("model"))
    if model and model != ctx.state.get("model"):
        ctx.state["model"] = model
        return [SessionInfo(base.session, model=model)]
    return []


def _inference_end(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    usage = token_usage(payload, _USAGE)
    if usage is not None:
        ctx.state["usage"] = asdict(usage)
    return []


def _message_end(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    text = as_str(payload.get("assistant_message"))
    return [base.answer(text, ctx.state.get("model"), final=True)] if text else []


def _exit(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    reason = as_str(payload.get("reason")) or ""
    return [base.event(EventType.RUNTIME, text=reason, terminal=True, terminal_kind=TerminalKind.EXITED)]


def _error(payload: dict[str, Any], base: RecordEvents, ctx: StreamContext) -> list[Emitted]:
    text = as_str(payload.get("error")) or ""
    return [base.event(EventType.RUNTIME, text=text, terminal=True, terminal_kind=TerminalKind.CRASHED)]


_EVENTS = {
    "session.start": _start,
    "session.input": _input,
    "thought.end": _thought,
    "tool_call.parsed": _call,
    "tool_call.result": _result,
    "tool_call.inference.start": _inference_start,
    "tool_call.inference.end": _inference_end,
    "assistant_message.end": _message_end,
    "session.exit": _exit,
    "session.error": _error,
}
