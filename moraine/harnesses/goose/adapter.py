"""Goose (sources ``goose`` and ``goose-sqlite``) -> normalized events.

Goose before 1.10 wrote one JSONL file per session (``~/.local/share/goose/sessions/<name>.jsonl``): the first line
is the session's metadata ``{working_dir, description, schedule_id, message_count, total_tokens, ...}``, each
further line one message ``{id, role, created, content: [...], metadata}``; the file name is the session id.
Goose 1.10 and later keep every session in ``sessions.db``, read by ``sqlite_reader`` into records tagged
``goose_message`` that carry the message and its session row (id, name, description, working directory, model
configuration, parent session). Content blocks are read by ``content``. Messages marked ``userVisible: false``
(context Goose adds for the model) are left out.
"""

from __future__ import annotations

import json
from typing import Any

from moraine.harnesses.goose.content import message_events
from moraine.harnesses.goose.sqlite_reader import MESSAGE_RECORD
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_str, parse_json_string, read_timestamp
from moraine.harness_api.model import Emitted, IngestError, SessionInfo

__all__ = ["GooseAdapter"]

_METADATA_KEYS = frozenset({"working_dir", "description", "message_count"})
_MODEL_KEYS = ("model_name", "modelName", "model")
_KNOWN_LIMIT = 512


class GooseAdapter(ObjectAdapter):
    """Normalize Goose session lines and ``sessions.db`` messages."""

    harness = "goose"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one record."""
        if data.get("record") == MESSAGE_RECORD:
            return _stored(data, ctx)
        session = ctx.path.stem
        if "role" in data:
            return _message(data, session, as_str(ctx.state.get("cwd")), None, ctx.state)
        if _METADATA_KEYS & data.keys():
            cwd = as_str(data.get("working_dir"))
            ctx.state["cwd"] = cwd
            return [SessionInfo(session=session, title=as_str(data.get("description")), cwd=cwd)]
        return [IngestError("unknown_record", "neither Goose session metadata nor a message")]


def _message(
    message: dict[str, Any], session: str, cwd: str | None, model: str | None, state: dict[str, Any]
) -> list[Emitted]:
    if as_dict(message.get("metadata")).get("userVisible") is False:
        return []
    out: list[Emitted] = []
    timestamp = read_timestamp(message.get("created"), out)
    provenance = {"message_id": message["id"]} if message.get("id") is not None else {}
    base = RecordEvents(session, timestamp, cwd, provenance=provenance)
    out.extend(message_events(message.get("role"), message.get("content"), base, model, state))
    return out


def _stored(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    row = as_dict(data.get("session"))
    session = as_str(row.get("id"))
    if not session:
        return [IngestError("malformed_record", "Goose message without a session id")]
    config = as_dict(parse_json_string(row.get("model_config")))
    model = next((as_str(config.get(key)) for key in _MODEL_KEYS if as_str(config.get(key))), None)
    cwd = as_str(row.get("working_dir"))
    out: list[Emitted] = []
    signature = json.dumps(row, sort_keys=True, default=str)
    if changed(ctx.state.setdefault("sessions", {}), session, signature, _KNOWN_LIMIT):
        started = read_timestamp(row.get("created_at"), out)
        title = as_str((as_str(row.get("name")) or "").strip()) or as_str(row.get("description"))
        parent = as_str(row.get("parent"))
        out.append(
            SessionInfo(
                session=session, title=title, cwd=cwd, model=model, started_at=started, parent_session=parent
            )
        )
    out.extend(_message(as_dict(data.get("message")), session, cwd, model, ctx.state))
    return out
