"""Read Cortex Code conversations (``~/.snowflake/cortex/conversations/<uuid>.json``) as session documents.

A conversation file holds ``{session_id, title, history, connection_name, working_directory, git_root, git_branch,
created_at, last_updated, history_length, session_type}``. Older versions keep the messages in ``history``; newer
ones leave it empty and append them, one JSON message a line, to the sibling ``<uuid>.history.jsonl``. Backups
(``<uuid>.back.<time>.json``) and files not named by a UUID yield nothing. A history line that is not a JSON
object is passed on as such, for the adapter to report.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.document_adapter import header, message_record
from moraine.harnesses._shared.fields import as_dict, as_list, as_str
from moraine.harnesses._shared.json_document import JsonDocumentReader, NotTheDocument
from moraine.harnesses._shared.sidecar import json_lines

__all__ = ["CortexReader"]

_SESSION_FILE = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$", re.IGNORECASE
)
_GENERATED_TITLE = "Chat for session:"


class CortexReader(JsonDocumentReader):
    """Yield a Cortex Code conversation's header and messages (inline or from its history file)."""

    error_reason = "malformed_session_file"
    reread_header = True

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the header and message records of one conversation."""
        if not _SESSION_FILE.match(path.name):
            return []
        if not isinstance(document, dict) or not as_str(document.get("session_id")):
            raise NotTheDocument("no session_id")
        session = document["session_id"]
        title = as_str(document.get("title"))
        head = header(
            session,
            title=None if title and title.startswith(_GENERATED_TITLE) else title,
            cwd=as_str(document.get("working_directory")) or as_str(document.get("git_root")),
            started_at=document.get("created_at"),
        )
        history = as_list(document.get("history")) or json_lines(path.with_name(path.stem + ".history.jsonl"))
        messages = [
            message_record(session, i, m, timestamp=as_dict(m).get("user_sent_time"))
            for i, m in enumerate(history)
        ]
        return [head, *messages]
