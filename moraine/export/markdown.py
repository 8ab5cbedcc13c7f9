"""Print a transcript as Markdown: the conversation as paragraphs, everything else in collapsed ``<details>``.

Markdown renders raw HTML, so text from the store (messages, titles, headings) is HTML-escaped (``<script>``
becomes ``&lt;script&gt;``, shown as written); folded content sits in code fences, where nothing is interpreted.
"""

from __future__ import annotations

import re

from moraine.export.labels import event_heading, is_folded, transcript_heading
from moraine.export.walk import Transcript, TranscriptEvent
from moraine.store.reads.settled import IN_PROGRESS

__all__ = ["render_markdown"]

_TICKS = re.compile(r"`+")


def _fenced(text: str) -> str:
    """Return ``text`` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in _TICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"


def _event(event: TranscriptEvent) -> str:
    heading = event_heading(event)
    text = event.content.text.rstrip("\n")
    if is_folded(event):
        return f"<details>\n<summary>{_escape(heading)}</summary>\n\n{_fenced(text)}\n\n</details>"
    return f"**{_escape(heading)}**\n\n{_escape(text)}"


def _escape(text: str) -> str:
    """Return ``text`` with the characters that start HTML markup or entities escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_markdown(transcript: Transcript) -> str:
    """Return ``transcript`` as a Markdown document."""
    lines = [f"# {_escape(transcript_heading(transcript))}", ""]
    lines.append(f"- Session: `{transcript.session_id}`")
    lines.append(f"- Harness: {transcript.harness} (source {transcript.source})")
    lines.append(
        f"- Started: {transcript.started_at or 'unknown'}; updated: {transcript.updated_at or 'unknown'}"
    )
    lines.append("")
    for turn in transcript.turns:
        state = "" if turn.completed else f" ({IN_PROGRESS})"
        lines.append(f"## Turn {turn.ordinal}{state}")
        lines.append("")
        if turn.started_at:
            lines.extend([f"_{turn.started_at}_", ""])
        for event in turn.events:
            lines.extend([_event(event), ""])
    return "\n".join(lines).rstrip("\n") + "\n"
