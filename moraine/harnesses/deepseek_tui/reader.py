"""Read DeepSeek TUI session files (``~/.deepseek/sessions/<id>.json``), rewritten in place as a session grows.

A file is ``{schema_version, metadata: {id, title, created_at, updated_at, model, workspace, total_tokens},
messages: [{role, content, timestamp, model}]}`` with content a string or Anthropic-style blocks. The folder also
holds ``latest.json`` and ``offline_queue.json``, which are not sessions and yield nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moraine.harnesses._shared.document_adapter import header, message_record
from moraine.harnesses._shared.fields import as_dict, as_list, as_str
from moraine.harnesses._shared.json_document import JsonDocumentReader, NotTheDocument

__all__ = ["DeepSeekTuiReader"]

_NOT_SESSIONS = frozenset({"latest.json", "offline_queue.json"})


class DeepSeekTuiReader(JsonDocumentReader):
    """Yield a DeepSeek TUI session's header and messages after the saved position."""

    error_reason = "malformed_session_file"
    reread_header = True

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the header and message records of one session file."""
        if path.name in _NOT_SESSIONS:
            return []
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            raise NotTheDocument("no messages list")
        meta = as_dict(document.get("metadata"))
        session = as_str(meta.get("id")) or path.stem
        head = header(
            session,
            title=meta.get("title"),
            cwd=meta.get("workspace"),
            model=meta.get("model"),
            started_at=meta.get("created_at"),
            version=document.get("schema_version"),
        )
        messages = [
            message_record(
                session, i, m, timestamp=as_dict(m).get("timestamp"), model=as_dict(m).get("model")
            )
            for i, m in enumerate(as_list(document["messages"]))
        ]
        return [head, *messages]
