"""Print a transcript as one self-contained HTML page: the conversation shown, everything else in ``<details>``.

Every piece of text from the store is escaped, so nothing a session contains can become markup or script.
"""

from __future__ import annotations

from html import escape

from moraine.export.labels import event_heading, is_folded, transcript_heading
from moraine.export.walk import Transcript, TranscriptEvent
from moraine.store.reads.settled import IN_PROGRESS

__all__ = ["render_html"]

_STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1d232a; }
header dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; color: #4a5560; }
header dt { font-weight: 600; }
h2 { border-top: 1px solid #d6dbe0; padding-top: 1rem; }
.event { margin: .8rem 0; }
.event h3 { font-size: .85rem; text-transform: uppercase; letter-spacing: .04em; margin: 0 0 .2rem; color: #4a5560; }
.user_input { border-left: 3px solid #2f6fb3; padding-left: .8rem; }
.assistant_response { border-left: 3px solid #3b8a4a; padding-left: .8rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
details { background: #f4f6f8; border-radius: 4px; padding: .3rem .6rem; }
summary { cursor: pointer; color: #4a5560; font-family: ui-monospace, monospace; font-size: .85rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: .85rem/1.4 ui-monospace, monospace; }
time { color: #6a7580; font-size: .85rem; }
""".strip()


def _event(event: TranscriptEvent) -> str:
    heading = escape(event_heading(event))
    text = escape(event.content.text.rstrip("\n"))
    kind = escape(event.type)
    if is_folded(event):
        return f'<details class="event {kind}"><summary>{heading}</summary>\n<pre>{text}</pre>\n</details>'
    return f'<section class="event {kind}"><h3>{heading}</h3>\n<div class="text">{text}</div></section>'


def render_html(transcript: Transcript) -> str:
    """Return ``transcript`` as an HTML document."""
    title = escape(transcript_heading(transcript))
    parts = [
        "<!doctype html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>{title}</title>",
        f"<style>\n{_STYLE}\n</style></head>",
        "<body>",
        f"<header><h1>{title}</h1><dl>",
        f"<dt>Session</dt><dd><code>{escape(transcript.session_id)}</code></dd>",
        f"<dt>Harness</dt><dd>{escape(transcript.harness)} (source {escape(transcript.source)})</dd>",
        f"<dt>Started</dt><dd>{escape(transcript.started_at or 'unknown')}</dd>",
        f"<dt>Updated</dt><dd>{escape(transcript.updated_at or 'unknown')}</dd>",
        "</dl></header>",
    ]
    for turn in transcript.turns:
        state = "" if turn.completed else f" ({IN_PROGRESS})"
        parts.append(f'<article class="turn"><h2>Turn {turn.ordinal}{state}</h2>')
        if turn.started_at:
            parts.append(f"<time>{escape(turn.started_at)}</time>")
        parts.extend(_event(event) for event in turn.events)
        parts.append("</article>")
    parts.extend(["</body>", "</html>"])
    return "\n".join(parts) + "\n"
