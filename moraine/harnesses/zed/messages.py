"""The messages of a Zed thread document, in both formats Zed has written, as one shape.

Current threads (the agent panel since 2025) hold ``messages: [{"User": {id, content: [...]}}, {"Agent": {content:
[...], tool_results: {<call id>: {tool_use_id, tool_name, is_error, content, output}}}}, "Resume"]`` where content
items are ``{"Text": str}``, ``{"Thinking": {text, signature}}``, ``{"RedactedThinking": str}``, ``{"ToolUse": {id,
name, input, raw_input}}``, ``{"Mention": {...}}`` or ``{"Image": {...}}``; ``request_token_usage`` maps a user
message id to the usage of the request it started. Legacy threads (``version`` 0.1/0.2) hold ``messages: [{id, role,
segments: [{type: text|thinking|redacted_thinking, ...}], tool_uses: [{id, name, input}], tool_results:
[{tool_use_id, is_error, content, output}], is_hidden}]`` with ``request_token_usage`` a list aligned with them.

``thread_messages`` returns each message as ``Said(role, parts, results, usage)``: ``parts`` are ``(kind, value)``
with kind ``text``, ``thinking``, ``redacted`` or ``call`` (value ``{id, name, input}``), ``results`` the tool
results ``{id, name, error, text}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from moraine.harnesses._shared.fields import as_dict, as_list, as_str, output_text

__all__ = ["Said", "thread_messages"]

_LEGACY_SEGMENTS = {"text": "text", "thinking": "thinking", "redacted_thinking": "redacted"}


@dataclass(slots=True)
class Said:
    """One message of a thread (see the module docstring); ``role`` is ``user`` or ``assistant``."""

    role: str
    parts: list[tuple[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] | None = None


def thread_messages(document: dict[str, Any]) -> list[Said | None]:
    """Return the document's messages in order (None for an entry that is neither a user nor an agent message)."""
    usage = document.get("request_token_usage")
    usage = dict(usage) if isinstance(usage, dict) else usage
    out: list[Said | None] = []
    last_user: str | None = None
    for index, item in enumerate(as_list(document.get("messages"))):
        if isinstance(item, dict) and ("User" in item or "Agent" in item):
            said = _current(item)
            if said.role == "user":
                last_user = as_str(as_dict(item["User"]).get("id"))
            elif isinstance(usage, dict) and last_user is not None:
                said.usage = (
                    as_dict(usage.pop(last_user, None)) or None
                )  # the first reply to it gets the request's usage
            out.append(said)
        elif isinstance(item, dict) and isinstance(item.get("role"), str):
            legacy = _legacy(item)
            if legacy is not None and isinstance(usage, list) and index < len(usage):
                legacy.usage = as_dict(usage[index]) or None
            out.append(legacy)
        else:
            out.append(None)
    return out


def _current(item: dict[str, Any]) -> Said:
    if "User" in item:
        said = Said("user")
        body = as_dict(item["User"])
    else:
        said = Said("assistant")
        body = as_dict(item["Agent"])
    for entry in as_list(body.get("content")):
        if isinstance(entry, str):
            said.parts.append(("text", entry))
            continue
        for key, value in as_dict(entry).items():
            if key == "Text":
                said.parts.append(
                    ("text", value if isinstance(value, str) else as_str(as_dict(value).get("text")))
                )
            elif key == "Thinking":
                said.parts.append(("thinking", as_str(as_dict(value).get("text"))))
            elif key == "RedactedThinking":
                said.parts.append(("redacted", value if isinstance(value, str) else None))
            elif key == "ToolUse":
                call = as_dict(value)
                arguments = call.get("input") if call.get("input") is not None else call.get("raw_input")
                said.parts.append(
                    ("call", {"id": call.get("id"), "name": call.get("name"), "input": arguments})
                )
    for call_id, result in as_dict(body.get("tool_results")).items():
        said.results.append(_result(call_id, as_dict(result)))
    return said


def _legacy(item: dict[str, Any]) -> Said | None:
    role = item["role"]
    if role not in ("user", "assistant") or item.get("is_hidden") is True:
        return None
    said = Said(role)
    for segment in as_list(item.get("segments")):
        segment = as_dict(segment)
        kind = _LEGACY_SEGMENTS.get(str(segment.get("type")))
        if kind is not None:
            said.parts.append((kind, as_str(segment.get("data" if kind == "redacted" else "text"))))
    for call in as_list(item.get("tool_uses")):
        call = as_dict(call)
        said.parts.append(
            ("call", {"id": call.get("id"), "name": call.get("name"), "input": call.get("input")})
        )
    for result in as_list(item.get("tool_results")):
        result = as_dict(result)
        said.results.append(_result(result.get("tool_use_id"), result))
    return said


def _result(call_id: Any, result: dict[str, Any]) -> dict[str, Any]:
    output = result.get("output")
    content = result.get("content")
    text = output if isinstance(output, str) and output else _content_text(content)
    return {
        "id": as_str(call_id) or as_str(result.get("tool_use_id")),
        "name": as_str(result.get("tool_name")),
        "error": result.get("is_error") if isinstance(result.get("is_error"), bool) else None,
        "text": text,
    }


def _content_text(content: Any) -> str:
    if isinstance(content, dict) and isinstance(content.get("Text"), str):
        return str(content["Text"])
    if isinstance(content, list):
        return "\n".join(_content_text(item) for item in content if _content_text(item))
    return output_text(content) if content is not None else ""
