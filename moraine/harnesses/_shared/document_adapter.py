"""The adapter side of session documents (``moraine.harnesses._shared.json_document``, ``reread_header``): a header, then messages.

A document reader writes its harness's header in one common shape, ``{record: "document_header", session: {id,
title, cwd, model, started_at}}``, and each message as ``{record: "document_message", session, index, timestamp,
model, message: {role, content}}``; ``DocumentAdapter`` reads both for any harness whose messages are content blocks
(``_blocks.Blocks`` says how the harness spells them). A message without a time of its own takes the last time
seen in its session, never an invented one. A message marked as a side chain (an abandoned branch) never ends a
turn. A header whose ``version`` the adapter does not know is reported (once
per file) and the document is read as the known version. Readers yield the header again on every pass (a title
set later is seen), so the adapter remembers having reported it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from moraine.harnesses._shared.content_blocks import Blocks, message_events
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.usage import UsageKeys, attach_usage, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_str, parse_timestamp, read_timestamp
from moraine.harness_api.model import Emitted, Event, IngestError, RawRecord, SessionInfo

__all__ = ["HEADER_RECORD", "MESSAGE_RECORD", "DocumentAdapter", "header", "message_record"]

HEADER_RECORD = "document_header"
MESSAGE_RECORD = "document_message"


def header(session: str, **fields: Any) -> dict[str, Any]:
    """Return a header record (``fields``: title, cwd, model, started_at, version, parent, where recorded)."""
    return {"record": HEADER_RECORD, "session": {"id": session, **fields}}


def message_record(session: str, index: int, message: Any, **fields: Any) -> dict[str, Any]:
    """Return the record of message ``index`` (``fields``: its timestamp, model, usage, sidechain)."""
    return {"record": MESSAGE_RECORD, "session": session, "index": index, "message": message, **fields}


class DocumentAdapter:
    """Normalize a document reader's records (see the module docstring); a subclass names its harness and blocks."""

    harness: str
    blocks: ClassVar[Blocks] = Blocks()
    versions: ClassVar[frozenset[Any]] = frozenset()  # the header versions known (empty: not versioned)
    usage_keys: ClassVar[UsageKeys | None] = None  # how a message record's ``usage`` names its counts

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
        if (
            self.versions
            and version is not None
            and version not in self.versions
            and not ctx.state.get("warned")
        ):
            ctx.state["warned"] = True
            detail = f"{self.harness} document version {str(version)[:20]!r} is unknown; read as a known one"
            out.append(IngestError("unknown_format_version", detail))
        started = read_timestamp(row.get("started_at"), out)
        if ctx.state.get("time") is None:  # a header read again keeps the time its messages reached
            ctx.state["time"] = started.isoformat() if started else None
        title = as_str(row.get("title"))
        parent = as_str(row.get("parent"))
        info = SessionInfo(
            session, title=title, cwd=ctx.state["cwd"], model=ctx.state["model"], started_at=started
        )
        info.parent_session = parent
        out.append(info)
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
        sidechain = data.get("sidechain") is True
        base = RecordEvents(session, timestamp, ctx.state.get("cwd"), sidechain, {"message_index": index})
        model = as_str(data.get("model")) or ctx.state.get("model")
        said = message_events(message, self.blocks, base, model, ctx.state)
        if self.usage_keys is not None:
            attach_usage(said, token_usage(data.get("usage"), self.usage_keys))
        for event in said if sidechain else ():  # an abandoned branch never ends the turn
            if isinstance(event, Event):
                event.terminal, event.terminal_kind, event.is_final_answer = False, None, False
        out.extend(said)
        return out
