"""A session's ``title`` and ``display_label``: the harness's title, else a bounded preview of the first prompt."""

from __future__ import annotations

from moraine.harnesses.registry import harness as registered
from moraine.store.reads.sessions import SessionRecord
from moraine.store.reads.timestamps import format_timestamp

__all__ = ["TITLE_CHARS", "display_label", "session_title"]

_PREVIEW_CHARS = 120
TITLE_CHARS = 80
_MODE_WORDS = {
    "web_search": "web search",
    "mcp_internal": "MCP session",
    "tool_calling": "tool session",
    "chat": "chat",
}


def _first_line(text: str, limit: int | None = _PREVIEW_CHARS) -> str | None:
    stripped = text.strip()
    if not stripped:
        return None
    line = stripped.splitlines()[0].strip()
    return line if limit is None or len(line) <= limit else line[:limit].rstrip() + "…"


def session_title(title: str | None, first_user_message: str | None) -> str | None:
    """Return the harness's title, else the first prompt's first line (whitespace collapsed; past ``TITLE_CHARS``
    cut at a word boundary with "…"), else ``None``."""
    if title and title.strip():
        return title.strip()
    line = _first_line(first_user_message or "", limit=None)
    if line is None:
        return None
    line = " ".join(line.split())
    if len(line) <= TITLE_CHARS:
        return line
    cut = line[: TITLE_CHARS - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space >= TITLE_CHARS // 2 else cut).rstrip(" ,.;:-") + "…"


def display_label(session: SessionRecord) -> str:
    """Return explicit title > first user message (first line, 120 chars + "…") > summary > slug > a label built
    from harness, mode, update time and turn count."""
    if session.title and session.title.strip():
        return session.title.strip()
    if session.first_user_message:
        preview = _first_line(session.first_user_message)
        if preview:
            return preview
    for fallback in (session.summary, session.slug):
        if fallback and fallback.strip():
            return fallback.strip()
    declared = registered(session.harness)
    harness = declared.display_name if declared else session.harness
    mode = _MODE_WORDS.get(session.mode, session.mode or "session")
    updated = format_timestamp(session.updated_at) or "unknown time"
    turns = f"{session.turn_count} turn{'' if session.turn_count == 1 else 's'}"
    return f"{harness}, {mode}, {updated}, {turns}"
