"""When a turn or a session without a recorded terminal event is over anyway: left idle for ``IDLE_MINUTES``.

Ingest ends a turn that the next user prompt follows (``moraine.ingest.sessions.TurnState.close_followed``). The
newest turn of a session has no such prompt. When nothing has been written to it for ``IDLE_MINUTES``, nobody is
working in it any more, whatever the harness recorded or left out: the turn is completed, and so is its session.
Its terminal event is then its final-response candidate (its last assistant text with no tool call after it) when
it has one, which is also its final response; otherwise its last event, and no final response is invented (a turn
cut short by a crash, a kill or a closed window). This matters for Claude Code, whose transcripts leave
``stop_reason`` null on every assistant record, and for every harness that writes no end-of-turn marker at all
(Goose, Gemini CLI, ...): the rule takes no harness's word, so none escapes it. A turn written to less than
``IDLE_MINUTES`` ago and not ended by a recorded terminal event stays ``completed: false``.

The rule is read time, as SQL expressions over the stored rows, so a session that went quiet after it was ingested
completes without any new record. A turn or session with no timestamp at all is never idle by this rule.

Why 30 minutes: while a turn runs, Claude Code appends a record for every content block and tool result, seconds
apart; the longest quiet stretches inside a running turn are a long generation or a slow tool (builds, test suites),
minutes. Half an hour leaves a wide margin over those, and a session left overnight reads as finished.
"""

from __future__ import annotations

__all__ = [
    "IDLE_MINUTES",
    "IN_PROGRESS",
    "SESSION_COMPLETED",
    "TURN_COMPLETED",
    "TURN_TERMINAL",
    "event_terminal",
]

IDLE_MINUTES = 30

# What every reader calls ``completed: false`` (the web page, the CLI, exports): one word for one state.
IN_PROGRESS = "in progress"

_IDLE = f"ifNull(updated_at < now64(3) - toIntervalMinute({IDLE_MINUTES}), 0)"

# Column expressions for ``turns FINAL`` and ``sessions FINAL`` reads (selected in place of the plain columns).
TURN_COMPLETED = f"(completed OR {_IDLE})"
TURN_TERMINAL = f"if(completed, terminal_seq, if({_IDLE}, ifNull(final_seq, last_seq), NULL))"
SESSION_COMPLETED = f"(completed OR {_IDLE})"


def event_terminal(stored: bool, seq: int, turn_terminal_seq: int | None) -> bool:
    """Return whether an event is terminal: recorded so, or its turn's terminal event (a rule ended the turn)."""
    return stored or seq == turn_terminal_seq
