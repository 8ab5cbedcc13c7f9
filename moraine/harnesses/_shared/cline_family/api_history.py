"""A Cline-family task folder that has no ``ui_messages.json``: its ``api_conversation_history.json`` is read.

The extension keeps two records of a task: the UI messages (read by ``reader``) and the conversation as it was sent
to the model, ``api_conversation_history.json``: a JSON array of Anthropic-style messages ``{role: user | assistant,
content: string | [blocks], ts?}`` with ``text``, ``thinking``, ``image``, ``tool_use {id, name, input}`` and
``tool_result {tool_use_id, content, is_error}`` blocks (tool calls and results verbatim). When a folder holds the
UI messages, they are the record read and this file is left alone; when it holds only the API history, the task is
read from it instead of being lost. What the extension put around the person's words is kept apart: the ``<task>``
and ``<feedback>`` tags are taken off a prompt, and ``<environment_details>`` blocks and the tool results of the
text-protocol versions (``[read_file for 'a.py'] Result:``) are system text, not input. A message without ``ts``
takes the task's start, which the task folder's name records (epoch milliseconds), said in its provenance.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.cline_family.reader import task_metadata
from moraine.harnesses._shared.content_blocks import Blocks, message_events
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.json_document import JsonDocumentReader, NotTheDocument
from moraine.harnesses._shared.memory import changed
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, parse_timestamp
from moraine.harness_api.model import Emitted, IngestError, SessionInfo

__all__ = ["API_RECORD", "ClineApiHistoryReader", "api_message"]

API_RECORD = "cline_api_message"
_UI_MESSAGES = "ui_messages.json"
_WRAPPED = re.compile(r"^\s*<(task|feedback)>\s*(.*?)\s*</\1>\s*$", re.DOTALL)
_INTERNAL = re.compile(r"^\s*(<environment_details>|\[[A-Za-z_]+(?: for [^\]\n]*)?\] Result:)")


def _internal(block: dict[str, Any]) -> bool:
    text = block.get("text")
    return isinstance(text, str) and _INTERNAL.match(text) is not None


_BLOCKS = Blocks(internal=_internal)


class ClineApiHistoryReader(JsonDocumentReader):
    """Yield the messages of a task's API history when the folder has no UI messages (see the module docstring)."""

    shape = "a Cline API conversation history (a JSON array of messages)"

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return one record per message, or none when ``ui_messages.json`` beside it is the record read."""
        if (path.parent / _UI_MESSAGES).exists():
            return []
        if not isinstance(document, list):
            raise NotTheDocument("not a JSON array")
        task = task_metadata(path.parent)
        return [
            {"record": API_RECORD, "task": task, "index": index, "message": message}
            for index, message in enumerate(document)
        ]


def api_message(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    """Return the events of one API history message (and the task's metadata when first seen)."""
    message = data.get("message")
    if not isinstance(message, dict):
        return [IngestError("malformed_record", f"API message {data.get('index')} is not a JSON object")]
    task = as_dict(data.get("task"))
    session = as_str(task.get("id")) or ctx.path.parent.name
    model = as_str(task.get("model"))
    out: list[Emitted] = []
    started = _task_start(session)
    timestamp, error = parse_timestamp(message.get("ts")) if message.get("ts") is not None else (None, None)
    if error is not None:
        out.append(error)
    provenance: dict[str, Any] = {"api_index": data.get("index")}
    if timestamp is None and started is not None:
        timestamp = started
        provenance["timestamp_source"] = "task_start"
    history = as_dict(task.get("history"))
    cwd = as_str(history.get("workspace"))
    if changed(ctx.state, "info", [session, cwd, model]):
        out.append(SessionInfo(session=session, cwd=cwd, model=model, started_at=started))
    base = RecordEvents(session, timestamp, cwd, provenance=provenance)
    out.extend(message_events(_unwrapped(message), _BLOCKS, base, model, ctx.state))
    return out


def _unwrapped(message: dict[str, Any]) -> dict[str, Any]:
    """Return ``message`` with the ``<task>``/``<feedback>`` tags taken off its prompt's text."""
    if message.get("role") != "user":
        return message
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if not isinstance(blocks, list):
        return message
    unwrapped = []
    for block in blocks:
        text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
        wrapped = _WRAPPED.match(text) if isinstance(text, str) else None
        unwrapped.append({**block, "text": wrapped.group(2)} if wrapped else block)
    return {**message, "content": unwrapped}


def _task_start(task_id: str) -> datetime | None:
    """Return the instant a task folder's name records (Cline names a task by its start in epoch milliseconds)."""
    if not task_id.isdigit() or len(task_id) != 13:
        return None
    return datetime.fromtimestamp(int(task_id) / 1000, tz=UTC)
