"""Turn raw message content and tool-call arguments into the readable text an event carries.

Shared by the adapters whose harnesses record content as strings or lists of typed blocks: ``message_text``
extracts what a person would read (Codex, Claude Code), ``parts_text`` joins the text parts of a message as most
other harnesses write them (``[{"type": "text", "text": ...}, ...]``), ``render_call`` writes a tool call the way the interface
document shows it (``exec_command(cmd="cargo test", workdir="/repo")``) while the structure stays in ``arguments``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from moraine.harnesses._shared.fields import as_list

__all__ = ["message_text", "parts_text", "render_call", "text_digest"]

# Keys whose string values are the readable part of a content block, in the order they are tried.
_TEXT_KEYS = ("text", "thinking", "message", "output", "summary", "content", "input")
_IMAGE_TYPES = frozenset({"image", "input_image", "output_image", "image_url"})
_MAX_DEPTH = 24


def message_text(content: Any) -> str:
    """Return the readable text of message content: a string, or the texts of its blocks joined by newlines."""
    return _text(content, 0)


def _text(value: Any, depth: int) -> str:
    if depth > _MAX_DEPTH:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [_text(item, depth + 1) for item in value]
        return "\n".join(part for part in parts if part)
    if isinstance(value, dict):
        kind = value.get("type")
        if isinstance(kind, str) and kind in _IMAGE_TYPES:
            return "[image]"
        for key in _TEXT_KEYS:
            if key in value:
                inner = _text(value[key], depth + 1)
                if inner:
                    return inner
    return ""


def parts_text(content: Any, kind: str | None = None) -> str:
    """Return content that is a string as it is, else the texts of its parts (of type ``kind``) joined by newlines."""
    if isinstance(content, str):
        return content
    return "\n".join(
        part["text"]
        for part in as_list(content)
        if isinstance(part, dict)
        and (kind is None or part.get("type") == kind)
        and isinstance(part.get("text"), str)
    )


def render_call(name: str, arguments: Any) -> str:
    """Return a one-line-per-value rendering of a tool call: ``name(key="value", other=3)``."""
    if arguments is None or arguments == {}:
        return f"{name}()"
    if isinstance(arguments, dict):
        rendered = ", ".join(f"{key}={_value(item)}" for key, item in arguments.items())
        return f"{name}({rendered})"
    if isinstance(arguments, str):
        return f"{name}({arguments})"
    return f"{name}({_value(arguments)})"


def _value(value: Any) -> str:
    if isinstance(value, str):
        # Quote like a call, but keep newlines as they are so multi-line commands stay readable and searchable.
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def text_digest(text: str) -> str:
    """Return a short stable digest of ``text`` with whitespace runs collapsed (to recognise a mirrored message)."""
    normalized = " ".join(text.split())
    return hashlib.sha256(normalized.encode("utf-8", "surrogatepass")).hexdigest()[:16]
