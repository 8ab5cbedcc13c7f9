"""When a turn without a recorded terminal event is over anyway: the newest turn ending on an answer, left idle.

Ingest ends a turn that the next user prompt follows (``moraine.ingest.sessions.TurnState.close_followed``). The
newest turn of a session has no such prompt: when it ends on an assistant answer (its last assistant text, with no
tool call after it) and nothing has followed for ``IDLE_MINUTES``, the agent is waiting for its user, and that answer
is the turn's terminal event and final response. This matters for Claude Code, whose transcripts leave
``stop_reason`` null on every assistant record. A turn still running (a tool call after its last text, or a text
written less than ``IDLE_MINUTES`` ago) stays ``completed: false`` with no final response: none is invented.

The rule is read time, as SQL expressions over the stored rows, so a session that went quiet after it was ingested
completes without any new record.

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

_IDLE = f"updated_at < now64(3) - toIntervalMinute({IDLE_MINUTES})"
_TURN_IDLE_ANSWER = f"(final_seq IS NOT NULL AND ifNull({_IDLE}, 0))"

# Column expressions for ``turns FINAL`` and ``sessions FINAL`` reads (selected in place of the plain columns).
TURN_COMPLETED = f"(completed OR {_TURN_IDLE_ANSWER})"
TURN_TERMINAL = f"if(completed, terminal_seq, if({_TURN_IDLE_ANSWER}, final_seq, NULL))"
SESSION_COMPLETED = f"(completed OR (answered AND ifNull({_IDLE}, 0)))"


def event_terminal(stored: bool, seq: int, turn_terminal_seq: int | None) -> bool:
    """Return whether an event is terminal: recorded so, or its turn's terminal event (a rule ended the turn)."""
    return stored or seq == turn_terminal_seq
