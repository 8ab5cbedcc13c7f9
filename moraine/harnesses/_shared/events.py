"""What the line-per-record adapters share when they turn one record into events.

``RecordEvents`` holds the fields every event of one record shares (session, time, cwd, sidechain and the
record's provenance) and builds each event with its own fields on top: reasoning, answers, tool calls and tool
responses have builders of their own. ``mark_final_answer`` applies the rule most harnesses follow for a turn's
answer once they know the turn ended (its last text is the final answer). ``join_fragments`` makes one event of
the pieces a harness streamed into one message (Goose keeps each streamed token of a thought as a block of its
own); ``end_message`` applies it to every assistant message it closes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from moraine.harnesses._shared.calls import remember_call
from moraine.harnesses._shared.text import render_call
from moraine.harnesses._shared.fields import canonical_tool_name, is_moraine_tool_name
from moraine.harness_api.model import ContentFormat, Emitted, Event, EventType, TerminalKind

__all__ = ["RecordEvents", "end_message", "join_fragments", "mark_final_answer"]


@dataclass(slots=True)
class RecordEvents:
    """The fields every event of one record shares; ``event`` adds an event's own (its provenance goes last)."""

    session: str
    timestamp: datetime | None
    cwd: str | None = None
    sidechain: bool = False
    provenance: dict[str, Any] = field(default_factory=dict)

    def event(self, type_: EventType, **fields: Any) -> Event:
        """Return an event of this record with ``fields`` (``provenance`` is merged over the record's)."""
        provenance = {**self.provenance, **fields.pop("provenance", {})}
        return Event(
            session=self.session,
            type=type_,
            timestamp=self.timestamp,
            cwd=self.cwd,
            sidechain=self.sidechain,
            provenance=provenance,
            **fields,
        )

    def reasoning(self, text: str, model: str | None = None, **fields: Any) -> Event:
        """Return a reasoning event of this record."""
        return self.event(
            EventType.REASONING, text=text, model=model, content_format=ContentFormat.REASONING, **fields
        )

    def answer(self, text: str, model: str | None = None, final: bool = False, **fields: Any) -> Event:
        """Return an assistant response of this record; a ``final`` one is the turn's answer and ends the turn."""
        return self.event(
            EventType.ASSISTANT_RESPONSE,
            text=text,
            model=model,
            is_final_answer=final,
            terminal=final,
            terminal_kind=TerminalKind.FINAL_RESPONSE if final else None,
            **fields,
        )

    def tool_call(
        self,
        raw_name: str | None,
        call_id: str | None,
        arguments: Any,
        model: str | None = None,
        provenance: dict[str, Any] | None = None,
        calls: dict[str, Any] | None = None,
    ) -> Event:
        """Return a tool call of this record under the tool's canonical name, rendered as its text.

        The harness's own spelling of the name goes to provenance when it differs; with ``calls`` (the stream's
        state) the call id is remembered so the response can be named.
        """
        raw = raw_name or "unknown"
        name, is_moraine = canonical_tool_name(raw)
        if calls is not None:
            remember_call(calls, call_id, name)
        extra = provenance or {}
        return self.event(
            EventType.TOOL_CALL,
            text=render_call(name, arguments),
            content_format=ContentFormat.TOOL_CALL,
            tool_name=name,
            tool_call_id=call_id,
            arguments=arguments,
            model=model,
            is_moraine_tool=is_moraine,
            provenance={**extra, "original_tool_name": raw} if raw != name else extra,
        )

    def tool_response(self, name: str | None, call_id: str | None, text: str, **fields: Any) -> Event:
        """Return a tool response of this record to the call ``call_id`` of tool ``name`` (``fields``: the rest)."""
        return self._response(name, call_id, is_moraine_tool_name(name), text, fields)

    def canonical_response(
        self, raw_name: str | None, call_id: str | None, text: str, *, spelling: bool = True, **fields: Any
    ) -> Event:
        """Return a tool response under the canonical name of ``raw_name`` (``fields``: the rest).

        With ``spelling`` the harness's own spelling of the name goes to provenance when it differs.
        """
        name, is_moraine = canonical_tool_name(raw_name) if raw_name else (None, False)
        if spelling and raw_name and raw_name != name:
            fields["provenance"] = {**fields.get("provenance", {}), "original_tool_name": raw_name}
        return self._response(name, call_id, is_moraine, text, fields)

    def response_to(self, call: Event, text: str, **fields: Any) -> Event:
        """Return the response to ``call``, a tool call of this record: same tool, call id and original spelling."""
        spelling = call.provenance.get("original_tool_name")
        if spelling is not None:
            fields["provenance"] = {"original_tool_name": spelling, **fields.get("provenance", {})}
        return self._response(call.tool_name, call.tool_call_id, call.is_moraine_tool, text, fields)

    def _response(
        self, name: str | None, call_id: str | None, is_moraine: bool, text: str, fields: dict[str, Any]
    ) -> Event:
        return self.event(
            EventType.TOOL_RESPONSE,
            text=text,
            content_format=ContentFormat.TOOL_RESPONSE,
            tool_name=name,
            tool_call_id=call_id,
            is_moraine_tool=is_moraine,
            **fields,
        )


def mark_final_answer(events: Sequence[Emitted]) -> None:
    """Make the last assistant response among ``events`` the turn's final answer (it ends the turn)."""
    answers = [e for e in events if isinstance(e, Event) and e.type is EventType.ASSISTANT_RESPONSE]
    if answers:
        answers[-1].is_final_answer = True
        answers[-1].terminal = True
        answers[-1].terminal_kind = TerminalKind.FINAL_RESPONSE


# The event types a harness may stream into one message a piece at a time.
_STREAMED = frozenset({EventType.REASONING, EventType.ASSISTANT_RESPONSE})


def join_fragments(events: Sequence[Event]) -> list[Event]:
    """Return one message's events with each run of consecutive pieces of one kind joined into one event.

    A run is consecutive reasoning (or consecutive reply text) of one message, alike in session, model and
    encryption; its texts are joined as written (a streamed piece carries its own spaces), and the joined event keeps
    the first piece's fields, the first usage recorded, and the last piece's end-of-turn marks.
    """
    out: list[Event] = []
    for event in events:
        last = out[-1] if out else None
        if last is not None and event.type in _STREAMED and _same_stream(last, event):
            last.text += event.text
            last.usage = last.usage or event.usage
            last.is_final_answer = event.is_final_answer
            last.terminal, last.terminal_kind = event.terminal, event.terminal_kind
        else:
            out.append(event)
    return out


def _same_stream(first: Event, then: Event) -> bool:
    return (
        first.type is then.type
        and first.session == then.session
        and first.model == then.model
        and first.encrypted == then.encrypted
        and first.sidechain == then.sidechain
        and not first.terminal
    )


def end_message(events: list[Event]) -> list[Emitted]:
    """Close an assistant message's events: its streamed pieces joined (``join_fragments``); one that calls no tool
    ends the turn with its last text as the answer."""
    joined = join_fragments(events)
    if not any(e.type is EventType.TOOL_CALL for e in joined):
        mark_final_answer(joined)
    return list(joined)
