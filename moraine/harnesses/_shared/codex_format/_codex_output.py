"""Read a Codex tool output: its readable text, exit code and error status, whichever format recorded it.

Codex has written tool outputs as: a JSON string ``{"output": ..., "metadata": {"exit_code": N, ...}}`` (the
classic shell tool); plain text with an ``Exit code: N`` header (freeform shell) or a ``Process exited with code N``
line (unified exec); an MCP result ``{"content": [...], "isError": bool}``; or an object ``{"content": ...,
"success": bool}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from moraine.harnesses._shared.exit import as_exit_code, exit_code_in_header
from moraine.harnesses._shared.text import message_text
from moraine.harnesses._shared.fields import json_text, parse_json_string

__all__ = ["ToolOutput", "read_tool_output"]

_EXIT_LINE = re.compile(r"^(?:Exit code:|Process exited with code)\s*(-?\d{1,10})\s*$", re.MULTILINE)


@dataclass(slots=True)
class ToolOutput:
    """What a tool response says: its text, exit code and whether it failed (None = not recorded)."""

    text: str
    exit_code: int | None = None
    tool_error: bool | None = None
    details: dict[str, Any] = field(default_factory=dict)


def read_tool_output(output: Any) -> ToolOutput:
    """Return the text, exit code and error status of a Codex function/custom tool output."""
    if isinstance(output, str):
        parsed = parse_json_string(output)
        if isinstance(parsed, dict):
            structured = _structured(parsed)
            if structured is not None:
                return structured
        return _with_exit_line(output)
    if isinstance(output, dict):
        structured = _structured(output)
        if structured is not None:
            return structured
    if isinstance(output, list):
        return _with_exit_line(message_text(output))
    return ToolOutput(text=json_text(output))


def _structured(value: dict[str, Any]) -> ToolOutput | None:
    metadata = value.get("metadata")
    if "output" in value and isinstance(metadata, dict):
        exit_code = as_exit_code(metadata.get("exit_code"))
        details = {k: v for k, v in metadata.items() if k != "exit_code" and isinstance(v, int | float | str)}
        return ToolOutput(
            text=message_text(value["output"]) or json_text(value["output"]),
            exit_code=exit_code,
            tool_error=None if exit_code is None else exit_code != 0,
            details=details,
        )
    if "content" in value and ("isError" in value or "success" in value or len(value) == 1):
        failed = value.get("isError")
        succeeded = value.get("success")
        tool_error = (
            failed if isinstance(failed, bool) else (not succeeded if isinstance(succeeded, bool) else None)
        )
        inner = _with_exit_line(message_text(value["content"]))
        if tool_error is None:
            tool_error = inner.tool_error
        return ToolOutput(text=inner.text, exit_code=inner.exit_code, tool_error=tool_error)
    if "output" in value and len(value) == 1:
        return _with_exit_line(message_text(value["output"]))
    return None


def _with_exit_line(text: str) -> ToolOutput:
    exit_code = exit_code_in_header(text, _EXIT_LINE)
    return ToolOutput(
        text=text, exit_code=exit_code, tool_error=None if exit_code is None else exit_code != 0
    )
