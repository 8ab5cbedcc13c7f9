"""A session's ``display_label``: the document's fallback order, bounded and free of transcript text beyond it."""

from __future__ import annotations

from moraine.store.reads.sessions import SessionRecord
from moraine.store.reads.timestamps import format_timestamp

__all__ = ["display_label"]

_PREVIEW_CHARS = 120
_HARNESS_NAMES = {
    "codex": "Codex",
    "claude-code": "Claude Code",
    "cursor": "Cursor",
    "hermes": "Hermes",
    "kiro-cli": "Kiro CLI",
    "kimi-cli": "Kimi CLI",
    "nac": "NAC",
    "opencode": "OpenCode",
    "pi-coding-agent": "Pi Coding Agent",
    "prime-agent": "Prime Agent",
    "qwen-code": "Qwen Code",
}
_MODE_WORDS = {
    "web_search": "web search",
    "mcp_internal": "MCP session",
    "tool_calling": "tool session",
    "chat": "chat",
}


def _first_line(text: str) -> str | None:
    stripped = text.strip()
    if not stripped:
        return None
    line = stripped.splitlines()[0].strip()
    return line if len(line) <= _PREVIEW_CHARS else line[:_PREVIEW_CHARS].rstrip() + "…"


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
    harness = _HARNESS_NAMES.get(session.harness, session.harness)
    mode = _MODE_WORDS.get(session.mode, session.mode or "session")
    updated = format_timestamp(session.updated_at) or "unknown time"
    turns = f"{session.turn_count} turn{'' if session.turn_count == 1 else 's'}"
    return f"{harness}, {mode}, {updated}, {turns}"
