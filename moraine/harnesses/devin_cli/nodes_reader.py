"""Read the Devin CLI message nodes (``~/.local/share/devin/cli/sessions.db``) of sessions that have no transcript.

Besides the transcripts, ``sessions.db`` keeps ``message_nodes(row_id, session_id, node_id, parent_node_id,
chat_message, created_at)``: each node a chat-completions message ``{role: user|assistant|agent|system|tool,
content, thinking, tool_calls: [{id, function: {name, arguments}}], tool_call_id}``. A session whose transcript
exists is read from the transcript (source ``devin-cli``); this reader yields the nodes of the others, each
``{record: "devin_node", session: {id, title, cwd, model, started}, node: {...message, node_id, created_at}}``, by
``rowid``. Hidden sessions are left out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite_rows import RowPoller

__all__ = ["NODE_RECORD", "DevinNodesReader"]

NODE_RECORD = "devin_node"
_REQUIRED = {
    "message_nodes": {"session_id", "chat_message", "created_at"},
    "sessions": {"id", "title", "working_directory", "model", "created_at"},
}


class DevinNodesReader(RowPoller):
    """Poll ``sessions.db`` read-only; yield the message nodes of sessions without a transcript."""

    required = _REQUIRED
    what = "Devin CLI"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._transcripts: Path | None = None

    def read(self, path: Path, offset: int, line_no: int) -> Any:
        """Yield the nodes after ``offset`` of the sessions with no file in ``transcripts/`` beside the store."""
        self._transcripts = path.parent / "transcripts"
        return super().read(path, offset, line_no)

    def query(self, columns: dict[str, set[str]]) -> str:
        """Return the query of the nodes after a rowid, with their visible sessions."""
        hidden = "AND COALESCE(s.hidden, 0) <> 1 " if "hidden" in columns["sessions"] else ""
        node = "n.node_id" if "node_id" in columns["message_nodes"] else "NULL"
        return (
            f"SELECT n.rowid, n.session_id, {node}, n.chat_message, n.created_at, "
            "s.title, s.working_directory, s.model, s.created_at "
            "FROM message_nodes AS n JOIN sessions AS s ON s.id = n.session_id "
            f"WHERE n.rowid > ? {hidden}ORDER BY n.rowid LIMIT ?"
        )

    def item(self, row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem | None:
        """Return the record of one node; None for a node whose session has a transcript (read from there)."""
        rowid, session, node_id, message_raw, created, title, cwd, model, started = row
        if self._transcripts is not None and (self._transcripts / f"{session}.json").exists():
            return None
        try:
            message = json.loads(message_raw)
        except (TypeError, ValueError) as exc:
            error = IngestError(
                "malformed_row", f"node {node_id} of {session}: chat_message is not JSON ({exc})"
            )
            return ReadItem(None, error, previous, line_no, int(rowid), line_no)
        data = {
            "record": NODE_RECORD,
            "session": {"id": session, "title": title, "cwd": cwd, "model": model, "started": started},
            "node": {**message, "node_id": node_id, "created_at": created}
            if isinstance(message, dict)
            else {},
        }
        return ReadItem(RawRecord(data, line_no, int(rowid)), None, previous, line_no, int(rowid), line_no)
