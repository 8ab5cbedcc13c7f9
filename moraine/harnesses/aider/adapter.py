"""Aider (source ``aider``, opt-in): the blocks of a ``.aider.chat.history.md`` -> normalized events.

Records come from ``markdown_reader``. Each run header opens a session: Aider keeps no session id, so the session
is named by the history file (a digest of its path) and the header's byte offset, which never changes in a file
Aider only appends to; the run's start (local time without a zone, read as UTC) is the time of all its events, as
Aider records no other. The repository (the file's folder) is the working directory.

User blocks (``#### ``) are prompts and open turns; a reply block is the model's answer, written whole once the
reply is done, so it is the turn's final answer (a later reply in the same turn, after a lint or test round, takes
its place). Aider's own lines (``> ``) are read for what they record: ``Applied edit to <file>`` and ``Creating empty
file <file>`` become edit and write tool calls on that file (with the line as the response), ``Running <command>``
a shell call whose following lines are its output, ``Main model: <model> with ...`` the model, ``Tokens: <n> sent,
... <n> received`` the usage of the model call before it; the rest is system text.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from typing import Any

from moraine.harnesses.aider.markdown_reader import BLOCK_RECORD, RUN_RECORD
from moraine.harnesses._shared.usage import cached_left_out
from moraine.harnesses._shared.events import RecordEvents
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_list, as_str
from moraine.harness_api.model import (
    Emitted,
    Event,
    EventType,
    IngestError,
    RawRecord,
    SessionInfo,
    TokenUsage,
)

__all__ = ["AiderAdapter"]

_HEADER_TIME = "%Y-%m-%d %H:%M:%S"
_EDITS = (("Applied edit to ", "edit"), ("Creating empty file ", "write"))
_RUNNING = "Running "
_MODEL = re.compile(r"^(?:Main model|Model): (\S+)")
_TOKENS = re.compile(r"([\d.]+)([kKmM]?) (sent|received|cache write|cache hit)")
_SCALE = {"": 1, "k": 1_000, "m": 1_000_000}


def _run(data: dict[str, Any], ctx: StreamContext, offset: int) -> list[Emitted]:
    digest = hashlib.sha256(str(ctx.path.resolve()).encode()).hexdigest()[:12]
    session = f"{digest}:{offset}"
    raw = as_str(data.get("started")) or ""
    out: list[Emitted] = []
    try:
        started: datetime | None = datetime.strptime(raw, _HEADER_TIME).replace(tzinfo=UTC)
    except ValueError:
        started = None
        out.append(IngestError("timestamp_parse_error", f"unreadable run header time {raw[:40]!r}"))
    ctx.state.update(session=session, started=started.isoformat() if started else None, model=None)
    out.append(SessionInfo(session=session, cwd=str(ctx.path.parent), started_at=started))
    return out


def _block(data: dict[str, Any], ctx: StreamContext, offset: int) -> list[Emitted]:
    session = as_str(ctx.state.get("session"))
    if session is None:
        return []  # text before the first run header belongs to no run
    lines = [line for line in as_list(data.get("lines")) if isinstance(line, str)]
    started = as_str(ctx.state.get("started"))
    base = RecordEvents(session, datetime.fromisoformat(started) if started else None, str(ctx.path.parent))
    text = "\n".join(lines).strip()
    channel = data.get("channel")
    model = as_str(ctx.state.get("model"))
    if channel == "user":
        return [base.event(EventType.USER_INPUT, text=text, starts_turn=True)] if text else []
    if channel == "assistant":
        return [base.answer(text, model, final=True)] if text else []
    if channel == "tool":
        return _tool_lines(lines, base, ctx.state, offset)
    return [IngestError("unknown_record", f"Aider block of channel {str(channel)[:20]!r}")]


def _tool_lines(lines: list[str], base: RecordEvents, state: dict[str, Any], offset: int) -> list[Emitted]:
    out: list[Emitted] = []
    notes: list[str] = []
    running: Event | None = None
    output: list[str] = []

    def close_run() -> None:
        if running is not None:
            out.append(base.response_to(running, "\n".join(output).strip()))
            output.clear()

    for index, line in enumerate(lines):
        call_id = f"{offset}:{index}"
        edit = next(((line[len(p) :].strip(), tool) for p, tool in _EDITS if line.startswith(p)), None)
        if edit is not None and edit[0]:
            close_run()
            running = None
            call = base.tool_call(edit[1], call_id, {"path": edit[0]}, as_str(state.get("model")))
            out.extend([call, base.response_to(call, line)])
        elif line.startswith(_RUNNING) and line[len(_RUNNING) :].strip():
            close_run()
            running = base.tool_call("shell", call_id, {"command": line[len(_RUNNING) :].strip()})
            out.append(running)
        elif (model := _MODEL.match(line)) is not None:
            state["model"] = model.group(1)
            out.append(SessionInfo(session=base.session, model=model.group(1)))
            notes.append(line)
        elif line.startswith("Tokens: "):
            out.append(_usage(line, base, as_str(state.get("model"))))
        elif running is not None:
            output.append(line)
        else:
            notes.append(line)
    close_run()
    note = "\n".join(notes).strip()
    if note:
        out.append(base.event(EventType.SYSTEM, text=note))
    return out


def _usage(line: str, base: RecordEvents, model: str | None) -> Event:
    counts: dict[str, int] = {}
    for number, scale, kind in _TOKENS.findall(line):
        try:
            counts[kind] = round(float(number) * _SCALE[scale.lower()])
        except ValueError:
            continue
    # Aider's "sent" is the completion's prompt_tokens (litellm's, cache hits included) plus the cache writes it
    # adds itself: both are taken out of Moraine's input.
    usage = cached_left_out(
        TokenUsage(
            input=counts.get("sent"),
            output=counts.get("received"),
            cache_read=counts.get("cache hit"),
            cache_write=counts.get("cache write"),
        )
    )
    return base.event(EventType.RUNTIME, text=line, model=model, usage=usage)


class AiderAdapter:
    """Normalize the records ``markdown_reader`` builds from an Aider chat history."""

    harness = "aider"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one run header or block."""
        data = record.data
        tag = data.get("record") if isinstance(data, dict) else None
        if tag == RUN_RECORD:
            return _run(data, ctx, record.offset)
        if tag == BLOCK_RECORD:
            return _block(data, ctx, record.offset)
        return [IngestError("unknown_record", "not an Aider run header or block")]
