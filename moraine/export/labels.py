"""What both transcript formats say about an event: its heading, and whether it is folded away by default."""

from __future__ import annotations

from moraine.export.walk import Transcript, TranscriptEvent

__all__ = ["event_heading", "is_folded", "transcript_heading"]

_SHOWN = frozenset({"user_input", "assistant_response"})  # the conversation itself; the rest is folded
_NAMES = {
    "user_input": "User",
    "assistant_response": "Assistant",
    "reasoning": "Reasoning",
    "tool_call": "Tool call",
    "tool_response": "Tool output",
    "compaction": "Compaction",
    "system": "System",
    "runtime": "Runtime",
}


def is_folded(event: TranscriptEvent) -> bool:
    """Return whether ``event`` is shown collapsed (tool calls and outputs, reasoning, system records)."""
    return event.type not in _SHOWN


def event_heading(event: TranscriptEvent) -> str:
    """Return the one-line label of ``event``: who spoke, or which tool ran and how it exited."""
    label = _NAMES.get(event.type, "Event")
    tool = event.content.tool_name
    if tool:
        label = f"{label}: {tool}"
    if event.content.exit_code is not None:
        label = f"{label} (exit {event.content.exit_code})"
    return label


def transcript_heading(transcript: Transcript) -> str:
    """Return the document's title: the session's, or a turn's place in it."""
    title = transcript.title or f"Untitled {transcript.harness} session"
    if transcript.kind == "turn":
        return f"Turn {transcript.turns[0].ordinal} of {title}"
    return title
