"""Row building: an assigned, redacted event -> its events row values, compact summary and postings terms."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from moraine.harness_api.model import Event, EventType, TokenUsage
from moraine.harness_api.reader import ReadItem
from moraine.placeholders import ENCRYPTED_REASONING_PLACEHOLDER
from moraine.ingest.sessions import compact
from moraine.terms.tokenize import term_counts

__all__ = [
    "EVENT_COLUMNS",
    "MAX_INDEXED_CHARS",
    "USAGE_COLUMNS",
    "clean",
    "dumps",
    "event_row",
    "event_summary",
    "posting_terms",
    "searchable_text",
    "to_ms",
    "to_utc",
]

MAX_INDEXED_CHARS = 200_000
# Event.usage (TokenUsage) field -> events column (migration 011), in this order at the end of EVENT_COLUMNS.
USAGE_COLUMNS = ("usage_input", "usage_output", "usage_cache_read", "usage_cache_write", "usage_reasoning")
EVENT_COLUMNS = (
    "session_key",
    "seq",
    "turn_seq",
    "ordinal",
    "type",
    "timestamp",
    "terminal",
    "terminal_kind",
    "is_final_answer",
    "content_format",
    "text",
    "summary",
    "summary_truncated",
    "tool_name",
    "tool_call_id",
    "arguments",
    "exit_code",
    "tool_error",
    "model",
    "originating_model",
    "cwd",
    "encrypted",
    "is_moraine_tool",
    "sidechain",
    "provenance",
    "doc_len",
    "stream_id",
    "source_offset",
    "source_line",
    *USAGE_COLUMNS,
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MIN = datetime(1900, 1, 1, tzinfo=UTC)
_MAX = datetime(2299, 12, 31, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def to_utc(value: datetime | None) -> datetime | None:
    """Return a UTC datetime at millisecond precision (naive = UTC); None, or out of ClickHouse's range, -> None."""
    if value is None:
        return None
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if not _MIN <= value <= _MAX:
        return None
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def to_ms(value: datetime | None) -> int | None:
    """Return epoch milliseconds of a value already passed through ``to_utc``."""
    return None if value is None else (value - _EPOCH) // _MS


def clean(text: str) -> str:
    """Return ``text`` encodable as UTF-8 (lone surrogates from JSON escapes become U+FFFD)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _replace(text)
    return text


def _replace(text: str) -> str:
    return "".join(ch if not 0xD800 <= ord(ch) <= 0xDFFF else "\ufffd" for ch in text)


# Built once: json.dumps with options builds a new encoder per call (twice the cost of a small value).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)


def dumps(value: Any) -> str:
    """Serialize a JSON value compactly (non-JSON leaves become strings)."""
    return clean(_ENCODER.encode(value))


def _render_arguments(arguments: Any) -> str:
    if isinstance(arguments, dict):
        for key in ("command", "cmd"):
            command = arguments.get(key)
            if isinstance(command, str) and command:
                return command
            if isinstance(command, list) and command:
                return " ".join(str(part) for part in command)
        parts = []
        for key, value in arguments.items():
            rendered = value if isinstance(value, str) else dumps(value)
            parts.append(f"{key}={rendered}")
            if sum(len(p) for p in parts) > 400:
                break
        return " ".join(parts)
    if isinstance(arguments, str):
        return arguments
    return "" if arguments is None else dumps(arguments)


def event_row(
    event: Event,
    session_key: int,
    seq: int,
    turn_seq: int,
    ordinal: int,
    timestamp_ms: int | None,
    originating_model: str | None,
    doc_len: int,
    stream_id: int,
    source: ReadItem,
) -> tuple[Any, ...]:
    """Return the events row (``EVENT_COLUMNS`` order) of an assigned, redacted event read from ``source``."""
    summary, summary_truncated = event_summary(event)
    return (
        session_key,
        seq,
        turn_seq,
        ordinal,
        event.type.value,
        timestamp_ms,
        int(event.terminal),
        event.terminal_kind.value if event.terminal_kind else "",
        int(event.is_final_answer),
        event.content_format.value,
        event.text,
        clean(summary),
        int(summary_truncated),
        _opt(event.tool_name),
        _opt(event.tool_call_id),
        None if event.arguments is None else dumps(event.arguments),
        event.exit_code,
        None if event.tool_error is None else int(event.tool_error),
        _opt(event.model),
        _opt(originating_model),
        _opt(event.cwd),
        int(event.encrypted),
        int(event.is_moraine_tool),
        int(event.sidechain),
        dumps(event.provenance),
        doc_len,
        stream_id,
        source.offset,
        source.line_no,
        *_usage(event.usage),
    )


def _usage(usage: TokenUsage | None) -> tuple[int | None, ...]:
    """Return the usage columns of an event: every count, or all None when the trace records none."""
    if usage is None:
        return (None,) * len(USAGE_COLUMNS)
    counts = (usage.input, usage.output, usage.cache_read, usage.cache_write, usage.reasoning)
    return tuple(count if _is_count(count) else None for count in counts)


def _is_count(value: object) -> bool:
    """Return whether ``value`` fits a UInt64 column (a trace's odd value is dropped, never a failed insert)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63


def _opt(value: str | None) -> str | None:
    return None if value is None else clean(value)


def event_summary(event: Event) -> tuple[str, bool]:
    """Return the compact one-line summary of an event and whether it was truncated."""
    if event.encrypted:
        return ENCRYPTED_REASONING_PLACEHOLDER, False
    if event.type is EventType.TOOL_CALL:
        rendered = _render_arguments(event.arguments) or event.text
        return compact(rendered)
    return compact(event.text)


def _flatten(value: Any, out: list[str], budget: list[int]) -> None:
    if budget[0] <= 0:
        return
    if isinstance(value, str):
        out.append(value)
        budget[0] -= len(value)
    elif isinstance(value, dict):
        for item in value.values():
            _flatten(item, out, budget)
    elif isinstance(value, list):
        for item in value:
            _flatten(item, out, budget)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        out.append(str(value))


def searchable_text(event: Event) -> str:
    """Return the text an event is found by: its text, plus a tool call's name and argument values."""
    if event.encrypted:
        return ""
    if event.type is not EventType.TOOL_CALL:
        return event.text[:MAX_INDEXED_CHARS]
    parts = [event.tool_name or "", event.text]
    if event.arguments is not None and (
        not isinstance(event.arguments, str) or event.arguments != event.text
    ):
        _flatten(event.arguments, parts, [MAX_INDEXED_CHARS])
    return "\n".join(p for p in parts if p)[:MAX_INDEXED_CHARS]


def posting_terms(event: Event) -> tuple[dict[str, int], int]:
    """Return the term frequencies and document length of a searchable event (empty when not searchable)."""
    if event.type is EventType.UNKNOWN or event.is_moraine_tool:
        return {}, 0
    text = searchable_text(event)
    if not text.strip():
        return {}, 0
    return term_counts(text)
