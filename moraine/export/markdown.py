"""Print a transcript as Markdown: the conversation as paragraphs, everything else in collapsed ``<details>``.

Text from the store is hostile input to whatever renders the file, so it is neutralized where it lands:

- HTML: ``&``, ``<`` and ``>`` are escaped everywhere (``<script>`` becomes ``&lt;script&gt;``, shown as written),
  which also leaves no ``<http://...>`` autolink.
- Links and images: outside code, every ``[`` (and every backslash, so that no ``\\[`` in the text can undo the
  escape) is backslash-escaped, so ``![](http://...)``, ``[x](javascript:...)``, reference links and their
  definitions are shown as text: nothing is fetched or followed. Inside an inline code span the added backslashes
  show, as the escaped ``<`` always did.
- Code fences: a message's fence is kept only where it cannot be anything but a fence at the top level (it starts
  its line); any other run of three backticks or tildes has its first one escaped, and a fence the message leaves
  open is closed at its end, so no message can swallow what follows, or turn the next fence into its own closer and
  a folded block into live Markdown. Inside a message's fence nothing is interpreted, so only the HTML escape
  applies there.
- Folded content (tool calls and outputs) sits in a fence longer than any run of backticks inside it.

A bare ``http://...`` that a renderer with GitHub's autolink extension turns into a link is still one: its whole
address is shown, and no image or ``javascript:`` link can be written that way.
"""

from __future__ import annotations

import re

from moraine.export.labels import event_heading, is_folded, transcript_heading
from moraine.export.walk import Transcript, TranscriptEvent
from moraine.store.reads.settled import IN_PROGRESS

__all__ = ["render_markdown"]

_TICKS = re.compile(r"`+")
# A fence opener at the start of its line: three or more backticks (whose info string has none) or tildes.
_OPENER = re.compile(r"(?P<run>`{3,}(?=[^`]*$)|~{3,})")
_RUN = re.compile(r"`{3,}|~{3,}")  # anywhere else: a fence inside a list, a quote or an indent, or not one


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
    return f"**{_inert(heading)}**\n\n{_message(text)}"


def _escape(text: str) -> str:
    """Return ``text`` with the characters that start HTML markup or entities escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _inert(line: str) -> str:
    """Return a line of text outside code with no markup, link, image or fence left live in it."""
    line = _escape(line.replace("\\", "\\\\")).replace("[", "\\[")
    return _RUN.sub(lambda run: "\\" + run.group(), line)


def _closes(line: str, fence: str) -> bool:
    """Return whether ``line`` closes a top-level fence opened with ``fence`` (CommonMark's rule)."""
    stripped = line.lstrip(" ")
    run = len(stripped) - len(stripped.lstrip(fence[0]))
    return len(line) - len(stripped) <= 3 and run >= len(fence) and not stripped[run:].strip(" \t")


def _message(text: str) -> str:
    """Return a message's text as Markdown: its own formatting kept, nothing in it live (see the module's doc)."""
    lines: list[str] = []
    fence = None  # the opener of the fence the message is in, if any
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):  # CommonMark's line ends
        if fence is not None:
            lines.append(_escape(line))
            if _closes(line, fence):
                fence = None
            continue
        opener = _OPENER.match(line)
        if opener is None:
            lines.append(_inert(line))
            continue
        fence = opener.group("run")
        lines.append(fence + _inert(line[len(fence) :]))
    if fence is not None:
        lines.append(fence)  # the message ended inside it
    return "\n".join(lines)


def render_markdown(transcript: Transcript) -> str:
    """Return ``transcript`` as a Markdown document."""
    lines = [f"# {_inert(transcript_heading(transcript))}", ""]
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
