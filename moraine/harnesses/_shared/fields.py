"""Read typed values out of raw trace records: strings, timestamps, tool names, tool argument and output text.

Shared by the adapters of the harnesses whose records carry loosely typed JSON. Every reader here is total: it
returns ``None`` (or an empty string) for a missing or ill-typed value instead of raising.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from moraine.harness_api.model import MORAINE_TOOL_NAMES, Emitted, IngestError

__all__ = [
    "as_dict",
    "as_int",
    "as_list",
    "as_str",
    "canonical_tool_name",
    "is_moraine_tool_name",
    "epoch_to_datetime",
    "json_text",
    "output_text",
    "parse_json_string",
    "parse_timestamp",
    "read_timestamp",
    "trailing_uuid",
]

_UUID_AT_END = re.compile(r"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$")
# A provider-qualified spelling of a Moraine tool: mcp__moraine__open (Claude Code, NAC), mcp_moraine_open
# (Hermes), moraine__open, moraine.open, moraine/open, moraine:open.
_MORAINE_QUALIFIED = re.compile(r"^(?:mcp_{1,2})?moraine(?:__|_|[./:])(?P<tool>[A-Za-z_]+)$", re.IGNORECASE)
# Beyond this a number is milliseconds since the epoch, not seconds (1e11 s is the year 5138).
_MILLIS_THRESHOLD = 1e11


def as_str(value: Any) -> str | None:
    """Return ``value`` if it is a non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def as_dict(value: Any) -> dict[str, Any]:
    """Return ``value`` if it is a JSON object, else an empty dict."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """Return ``value`` if it is a JSON array, else an empty list."""
    return value if isinstance(value, list) else []


def as_int(value: Any) -> int | None:
    """Return ``value`` as an int when it is an integral number (bools excluded), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def epoch_to_datetime(value: float) -> datetime | None:
    """Return the aware UTC instant of a Unix time in seconds or milliseconds (None when out of range)."""
    seconds = value / 1000.0 if abs(value) >= _MILLIS_THRESHOLD else value
    try:
        return datetime.fromtimestamp(seconds, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def parse_timestamp(value: Any) -> tuple[datetime | None, IngestError | None]:
    """Parse an RFC 3339 / ISO 8601 string (naive = UTC) or a Unix time in seconds or milliseconds.

    Returns ``(None, None)`` when the value is absent and ``(None, IngestError)`` when it is present but unreadable.
    """
    if value is None or value == "":
        return None, None
    if isinstance(value, bool):
        return None, _bad_timestamp(value)
    if isinstance(value, int | float):
        parsed = epoch_to_datetime(float(value))
        return (parsed, None) if parsed is not None else (None, _bad_timestamp(value))
    if isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            return None, _bad_timestamp(value)
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed.astimezone(UTC), None
    return None, _bad_timestamp(value)


def read_timestamp(value: Any, out: list[Emitted]) -> datetime | None:
    """Return the instant ``value`` names (see ``parse_timestamp``), reporting an unreadable one in ``out``."""
    parsed, error = parse_timestamp(value)
    if error is not None:
        out.append(error)
    return parsed


def _bad_timestamp(value: Any) -> IngestError:
    return IngestError(
        reason="timestamp_parse_error",
        detail=f"unreadable timestamp {json.dumps(value)[:80]}; the event keeps a null timestamp",
    )


def canonical_tool_name(name: str) -> tuple[str, bool]:
    """Return ``(canonical name, is a Moraine tool)``: provider prefixes are removed only for Moraine's own tools.

    A call through the MCP-qualified spelling ``mcp__moraine__<tool>`` is a call to the Moraine server whatever the
    tool; the looser spellings (``mcp_moraine_<tool>``, ``moraine.<tool>``, ...) count only for the four tools.
    """
    match = _MORAINE_QUALIFIED.match(name)
    if match:
        tool = match.group("tool")
        if tool.lower() in MORAINE_TOOL_NAMES:
            return tool.lower(), True
        if name.lower().startswith("mcp__moraine__"):
            return tool, True
    return name, name in MORAINE_TOOL_NAMES


def is_moraine_tool_name(name: str | None) -> bool:
    """Return whether ``name`` (any spelling, possibly unknown) names one of Moraine's own tools."""
    return name is not None and canonical_tool_name(name)[1]


def json_text(value: Any) -> str:
    """Return a searchable rendering of a JSON value: strings as they are, anything else as compact JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def parse_json_string(value: Any) -> Any:
    """Return the JSON value a string encodes (for tool arguments recorded as strings); other values unchanged."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "["):
            try:
                return json.loads(stripped)
            except ValueError:
                return value
    return value


def output_text(value: Any) -> str:
    """Return the text of a tool output: strings, text blocks (``{"text": ...}`` / ``{"data": ...}``) or JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = [_block_text(item) for item in value]
        if all(text is not None for text in texts):
            return "\n".join(text for text in texts if text)
    if isinstance(value, dict):
        for key in ("output", "text", "content"):
            inner = value.get(key)
            if isinstance(inner, str) and len(value) == 1:
                return inner
    return json_text(value)


def _block_text(item: Any) -> str | None:
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        for key in ("text", "data"):
            if isinstance(item.get(key), str):
                return str(item[key])
    return None


def trailing_uuid(stem: str) -> str | None:
    """Return the UUID a file name stem ends with, if any."""
    match = _UUID_AT_END.search(stem)
    return match.group(1) if match else None
