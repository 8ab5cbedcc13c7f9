"""What both transcript formats say about an event: its heading, and whether it is folded away by default."""

from __future__ import annotations

from moraine.export.walk import Transcript, TranscriptEvent

__all__ = ["event_heading", "is_folded", "transcript_heading"]

_SHOWN = frozenset({"user_input", "assistant_response"})  # the conversation itself; the rest is folded
_TITLE_CHARS = 120  # as the web page labels an untitled session
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


def _opening(transcript: Transcript) -> str | None:
    """Return the first line of the first user message (what an untitled session is about), trimmed."""
    for turn in transcript.turns:
        for event in turn.events:
            line = event.content.text.strip().split("\n", 1)[0].strip() if event.type == "user_input" else ""
            if line:
                return line if len(line) <= _TITLE_CHARS else line[: _TITLE_CHARS - 1] + "…"
    return None


def transcript_heading(transcript: Transcript) -> str:
    """Return the document's title: the session's, else its opening request, or a turn's place in it."""
    if transcript.kind == "turn":  # a turn's own prompt would misname its session
        return f"Turn {transcript.turns[0].ordinal} of {transcript.title or f'an untitled {transcript.harness} session'}"
    return transcript.title or _opening(transcript) or f"Untitled {transcript.harness} session"
