"""Read Omnigent's store (``~/.omnigent/chat.db``) one conversation item at a time.

Omnigent keeps every conversation in ``conversations`` (``workspace_id``, ``id``, ``title``, ``created_at``,
``parent_conversation_id``, ``root_conversation_id``; newer builds ``session_overrides``), its metadata in
``omnigent_conversation_metadata`` (``kind``, ``sub_agent_name``, ``workspace``, ``git_branch``), the model override
in ``agent_configuration`` (older builds) and each transcript event as a ``conversation_items`` row (``position``,
``type``, ``data`` JSON, ``search_text``). Ids are text in older builds and 16-byte blobs in newer ones (read as
hex); item types are names or small integer codes. This reader polls read-only and yields the items after the saved
``rowid``, each ``{record: "omnigent_item", conversation: {id, title, cwd, model, started, parent}, item: {position,
type, data, search_text, created_at}}``; a sub-agent conversation without a workspace takes its root's.
"""

from __future__ import annotations

import json
from typing import Any

from moraine.harnesses._shared.fields import as_dict, as_str
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.sqlite_rows import RowPoller

__all__ = ["ITEM_RECORD", "OmnigentChatReader"]

ITEM_RECORD = "omnigent_item"
_REQUIRED = {
    "conversations": {"id", "created_at", "title"},
    "conversation_items": {"conversation_id", "position", "type", "data"},
}


def _id(column: str) -> str:
    return f"CASE WHEN typeof({column}) = 'blob' THEN lower(hex({column})) ELSE {column} END"


class OmnigentChatReader(RowPoller):
    """Poll ``chat.db`` read-only; yield conversation items after the saved ``rowid``."""

    required = _REQUIRED
    what = "Omnigent"
    optional = ("omnigent_conversation_metadata", "agent_configuration")

    def query(self, columns: dict[str, set[str]]) -> str:
        """Return the query of the items after a rowid, with their conversations."""
        return _query(columns)

    def item(self, row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem:
        """Return the record of one item row."""
        return _item(row, previous, line_no)


def _query(columns: dict[str, set[str]]) -> str:
    items, conversations = columns["conversation_items"], columns["conversations"]
    metadata, config = columns["omnigent_conversation_metadata"], columns["agent_configuration"]

    def pick(alias: str, have: set[str], column: str) -> str:
        return f"{alias}.{column}" if column in have else "NULL"

    workspace = "0" if "workspace_id" not in items else "i.workspace_id"
    same_workspace = (
        "c.workspace_id = i.workspace_id AND "
        if "workspace_id" in conversations and "workspace_id" in items
        else ""
    )
    joins = f" LEFT JOIN conversations AS c ON {same_workspace}c.id = i.conversation_id"
    if metadata:
        joins += " LEFT JOIN omnigent_conversation_metadata AS m ON m.workspace_id = c.workspace_id AND m.id = c.id"
        joins += " LEFT JOIN omnigent_conversation_metadata AS r ON r.workspace_id = c.workspace_id AND r.id = c.root_conversation_id"
    if config:
        joins += " LEFT JOIN agent_configuration AS a ON a.workspace_id = c.workspace_id AND a.conversation_id = c.id"
    fields = [
        "i.rowid",
        workspace,
        _id("i.conversation_id"),
        "i.position",
        "i.type",
        "i.data",
        pick("i", items, "search_text"),
        pick("i", items, "created_at"),
        "c.title",
        "c.created_at",
        _id("c.parent_conversation_id") if "parent_conversation_id" in conversations else "NULL",
        pick("m", metadata, "sub_agent_name"),
        f"COALESCE({pick('m', metadata, 'workspace')}, {pick('r', metadata, 'workspace')})",
        pick("a", config, "model_override"),
        pick("c", conversations, "session_overrides"),
    ]
    return f"SELECT {', '.join(fields)} FROM conversation_items AS i{joins} WHERE i.rowid > ? ORDER BY i.rowid LIMIT ?"


def _item(row: tuple[Any, ...], previous: int, line_no: int) -> ReadItem:
    rowid, workspace, conversation, position, kind, data_raw, search_text, created = row[:8]
    title, started, parent, sub_agent, cwd, model, overrides = row[8:]
    try:
        data = json.loads(data_raw)
    except (TypeError, ValueError) as exc:
        error = IngestError("malformed_row", f"item {position} of {conversation}: data is not JSON ({exc})")
        return ReadItem(None, error, previous, line_no, int(rowid), line_no)
    try:
        override = as_str(as_dict(json.loads(overrides)).get("model_override")) if overrides else None
    except ValueError:
        override = None
    record = {
        "record": ITEM_RECORD,
        "conversation": {
            "id": f"{workspace}:{conversation}" if conversation else None,
            "title": as_str(title) or as_str(sub_agent),
            "cwd": as_str(cwd),
            "model": override or as_str(model),
            "started": started,
            "parent": f"{workspace}:{parent}" if parent else None,
        },
        "item": {
            "position": position,
            "type": kind,
            "data": data,
            "search_text": search_text,
            "created_at": created,
        },
    }
    return ReadItem(RawRecord(record, line_no, int(rowid)), None, previous, line_no, int(rowid), line_no)
