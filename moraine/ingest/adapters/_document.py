"""The adapter side of session documents (``moraine.ingest.readers._document``): a header, then messages.

A document reader writes its harness's header in one common shape, ``{record: "document_header", session: {id,
title, cwd, model, started_at}}``, and each message as ``{record: "document_message", session, index, timestamp,
model, message: {role, content}}``; ``DocumentAdapter`` reads both for any harness whose messages are content blocks
(``_blocks.Blocks`` says how the harness spells them). A message without a time of its own takes the last time
seen in its session, never an invented one. A header whose ``version`` the adapter does not know is reported (once
per file, as the header is read once) and the document is read as the known version.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from moraine.ingest.adapters._blocks import Blocks, message_events
from moraine.ingest.adapters._events import RecordEvents
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.adapters.fields import as_dict, as_int, as_str, parse_timestamp, read_timestamp
from moraine.ingest.model import Emitted, IngestError, RawRecord, SessionInfo

__all__ = ["HEADER_RECORD", "MESSAGE_RECORD", "DocumentAdapter", "header", "message_record"]

HEADER_RECORD = "document_header"
MESSAGE_RECORD = "document_message"


def header(session: str, **fields: Any) -> dict[str, Any]:
    """Return a header record (``fields``: title, cwd, model, started_at, version, where the harness records them)."""
    return {"record": HEADER_RECORD, "session": {"id": session, **fields}}


def message_record(session: str, index: int, message: Any, **fields: Any) -> dict[str, Any]:
    """Return the record of message ``index`` (``fields``: its timestamp, model)."""
    return {"record": MESSAGE_RECORD, "session": session, "index": index, "message": message, **fields}


class DocumentAdapter:
    """Normalize a document reader's records (see the module docstring); a subclass names its harness and blocks."""

    harness: str
    blocks: ClassVar[Blocks] = Blocks()
    versions: ClassVar[frozenset[Any]] = frozenset()  # the header versions known (empty: not versioned)

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the events, session metadata and ingest errors of one record."""
        data = as_dict(record.data)
        if data.get("record") == HEADER_RECORD:
            return self._header(as_dict(data.get("session")), ctx)
        if data.get("record") == MESSAGE_RECORD:
            return self._message(data, ctx)
        return [IngestError("unknown_record", f"not a {self.harness} session document record")]

    def _header(self, row: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        session = as_str(row.get("id"))
        if not session:
            return [IngestError("malformed_record", f"{self.harness} session document without an id")]
        ctx.state.update(session=session, cwd=as_str(row.get("cwd")), model=as_str(row.get("model")))
        out: list[Emitted] = []
        version = row.get("version")
        if self.versions and version is not None and version not in self.versions:
            detail = f"{self.harness} document version {str(version)[:20]!r} is unknown; read as a known one"
            out.append(IngestError("unknown_format_version", detail))
        started = read_timestamp(row.get("started_at"), out)
        ctx.state["time"] = started.isoformat() if started else None
        title = as_str(row.get("title"))
        out.append(
            SessionInfo(
                session, title=title, cwd=ctx.state["cwd"], model=ctx.state["model"], started_at=started
            )
        )
        return out

    def _message(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        message = data.get("message")
        session = as_str(data.get("session")) or ctx.state.get("session")
        if not isinstance(message, dict) or not session:
            return [
                IngestError("malformed_record", f"{self.harness} message {data.get('index')}: not an object")
            ]
        out: list[Emitted] = []
        timestamp = read_timestamp(data.get("timestamp"), out)
        if timestamp is None:
            timestamp, _ = parse_timestamp(ctx.state.get("time"))
        else:
            ctx.state["time"] = timestamp.isoformat()
        index = as_int(data.get("index"))
        base = RecordEvents(session, timestamp, ctx.state.get("cwd"), provenance={"message_index": index})
        model = as_str(data.get("model")) or ctx.state.get("model")
        out.extend(message_events(message, self.blocks, base, model, ctx.state))
        return out
