"""Record parsing: one read item of a stream -> adapter -> validation, redaction, sequencing -> rows in a batch.

The same code runs in the store-owning process and in worker processes (``moraine.ingest.worker``). Its only tie
to other streams is the session-key owner map (one harness session id written by two files gets a second key in the
later one); a worker starts from an empty map, lists the keys it gave (``claims``), and the owning process gives
them their final value (``moraine.ingest.chunk.rekey``).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from moraine.attention.extract import TouchContext, extract_touches
from moraine.ids import session_key
from moraine.harness_api.adapter import Adapter
from moraine.ingest.batch import Batch
from moraine.harness_api.model import Event, EventType, IngestError, SessionInfo
from moraine.harness_api.reader import ReadItem, Reader, holds_tail
from moraine.ingest.rows import clean, event_row, posting_terms, to_ms, to_utc
from moraine.ingest.sessions import SessionState
from moraine.ingest.stream import Stream
from moraine.ingest.validate import InvalidItem, check_event
from moraine.redact import redact_text, redact_value

__all__ = ["MAX_ERRORS_PER_FILE", "Parser", "Tally", "alternate_key"]

logger = logging.getLogger(__name__)

_LOGGED_FRAMES = 8  # of a failure's traceback (a RecursionError has a thousand)
_MAX_META_CHARS = 4000  # session metadata is re-published with every batch: keep it small
# Error rows one read of a file writes one by one; past them, one row counts the rest. A hostile 2 KB zip of
# conversations wrote a million rows (28 s); no real trace file in our fixtures or reports had more than a handful.
MAX_ERRORS_PER_FILE = 100


def _failure(exc: Exception) -> str:
    """Say why reading a file failed without quoting it: an exception's message may hold the file's content."""
    again = "read again from here when the file changes"
    if isinstance(exc, RecursionError):
        return f"nesting too deep to read; {again}"
    return f"{type(exc).__name__} while reading (its frames are in the log); {again}"


def alternate_key(source: str, harness_sid: str, path: str) -> int:
    """Return the session key of a harness session whose id another file of the source already holds."""
    return session_key(source, f"{harness_sid}\0{path}")


@dataclass(slots=True)
class Tally:
    """What records have done so far: events and errors written, the sessions they belong to."""

    events: int = 0
    errors: int = 0
    sessions: set[int] = field(default_factory=set)


class Parser:
    """Turns read items into rows of ``batch``; ``owners`` maps source -> session key -> owning stream id."""

    def __init__(
        self, redact: bool, owners: dict[str, dict[int, int]] | None = None, claims: bool = False
    ) -> None:
        self.redact = redact
        self.batch = Batch()
        self.tally = Tally()
        self.owners: dict[str, dict[int, int]] = owners if owners is not None else {}
        # With ``claims``: (harness session id, key) of the sessions opened, in order (a worker reports them).
        self.claims: list[tuple[str, int]] | None = [] if claims else None
        # The errors of the file being read (``read``); past the cap, (count, line, offset of the last) of the rest.
        self._file_errors = 0
        self._more_errors: tuple[int, int, int] | None = None

    def item(self, stream: Stream, adapter: Adapter, item: ReadItem) -> None:
        """Add the rows of one read item (its errors as ``ingest_errors`` rows)."""
        if item.error is not None or item.record is None:
            error = item.error or IngestError("unreadable", "")
            self._item_error(stream, item, error.reason, error.detail)
            return
        try:
            emitted = list(adapter.normalize(item.record, stream.ctx))
        except Exception as exc:  # an adapter bug on one record must not stop the file: record it and go on
            logger.debug("adapter failed on %s:%s", stream.path, item.line_no, exc_info=True)
            # The exception's type only: its message may quote the record (``invalid literal ...: 'hunter2'``).
            self._item_error(stream, item, "adapter_error", f"{type(exc).__name__} in the adapter")
            return
        for out in emitted:
            try:
                if isinstance(out, Event):
                    self._event(stream, out, item)
                elif isinstance(out, SessionInfo):
                    self._info(stream, out)
                elif isinstance(out, IngestError):
                    self._item_error(stream, item, out.reason, out.detail)
                else:
                    raise InvalidItem(
                        f"adapter emitted {type(out).__name__}, not Event/SessionInfo/IngestError"
                    )
            except InvalidItem as exc:
                self._item_error(stream, item, "invalid_event", str(exc))

    def read(self, reader: Reader, adapter: Adapter, stream: Stream) -> Iterator[None]:
        """Parse ``stream``'s file from its position, yielding after each read item (so the caller may cut a batch);
        mark the stream finished at its end, or record an unreadable file as an error.

        Nothing in one file stops the pass: a reader or adapter that fails on it (a bug, or a hostile file that
        slipped past their checks) gives one ``read_failed`` error at the position reached, the rows before it are
        kept, and the file is not read again until it changes (the stream counts as finished).
        """
        self._file_errors, self._more_errors = 0, None
        try:
            for item in reader.read(stream.path, stream.offset, stream.line_no):
                self.item(stream, adapter, item)
                stream.offset, stream.line_no = item.end, item.end_line
                yield
            stream.finished = not holds_tail(reader, stream.path)
        except OSError as exc:
            detail = exc.strerror or str(exc)
            self.error(
                stream.source.name, str(stream.path), stream.line_no, stream.offset, "unreadable", detail
            )
        except Exception as exc:  # the boundary of one file: report it, go on with the next file
            # The frames, not the message: a message may quote the file (the log is not redacted).
            where = "".join(traceback.format_tb(exc.__traceback__, limit=-_LOGGED_FRAMES))
            logger.warning(
                "reading %s failed at line %d: %s\n%s", stream.path, stream.line_no, type(exc).__name__, where
            )
            self.error(
                stream.source.name,
                str(stream.path),
                stream.line_no,
                stream.offset,
                "read_failed",
                _failure(exc),
            )
            stream.finished = True
        if self._more_errors is not None:
            count, line_no, offset = self._more_errors
            detail = (
                f"{count} more errors in this file, counted but not recorded one by one "
                f"(the first {MAX_ERRORS_PER_FILE} are)"
            )
            self.batch.add_error(stream.source.name, str(stream.path), line_no, offset, "more_errors", detail)
        self._more_errors = None

    def error(self, source: str, path: str, line_no: int, offset: int, reason: str, detail: str) -> None:
        """Add one ``ingest_errors`` row (``detail`` redacted when redaction is on)."""
        text = redact_text(detail) if self.redact else detail
        self.batch.add_error(source, path, line_no, offset, clean(reason)[:100] or "unknown", text)
        self.tally.errors += 1

    def _item_error(self, stream: Stream, item: ReadItem, reason: str, detail: str) -> None:
        self._file_errors += 1
        if self._file_errors > MAX_ERRORS_PER_FILE:
            count = self._more_errors[0] + 1 if self._more_errors else 1
            self._more_errors = (count, item.line_no, item.offset)
            self.tally.errors += 1
            return
        self.error(stream.source.name, str(stream.path), item.line_no, item.offset, reason, detail)

    def _session(self, stream: Stream, harness_sid: str) -> SessionState:
        state = stream.sessions.get(harness_sid)
        if state is None:
            owners = self.owners.setdefault(stream.source.name, {})
            key = session_key(stream.source.name, harness_sid)
            if (
                owners.get(key, stream.id) != stream.id
            ):  # another file already holds this session: keep seqs apart
                key = alternate_key(stream.source.name, harness_sid, str(stream.path))
            owners[key] = stream.id
            state = SessionState(harness_sid, key)
            stream.sessions[harness_sid] = state
            if self.claims is not None:
                self.claims.append((harness_sid, key))
        return state

    def _info(self, stream: Stream, info: SessionInfo) -> None:
        if not isinstance(info.session, str) or not info.session:
            raise InvalidItem("session info without a session id")
        for name in ("title", "summary", "slug", "cwd", "model", "parent_session", "first_user_message"):
            value = getattr(info, name)
            if value is not None and not isinstance(value, str):
                raise InvalidItem(f"session info field {name} is {type(value).__name__}, not str")
            if isinstance(value, str):
                value = value[:_MAX_META_CHARS]
                setattr(info, name, clean(redact_text(value) if self.redact else value))
        if info.started_at is not None and not isinstance(info.started_at, datetime):
            raise InvalidItem("session info started_at is not a datetime")
        state = self._session(stream, info.session)
        state.apply_info(info, to_ms(to_utc(info.started_at)))
        self.batch.touch_session(state, stream.session_meta())

    def _event(self, stream: Stream, event: Event, item: ReadItem) -> None:
        check_event(event)
        if self.redact:
            event.text = redact_text(event.text)
            event.arguments = redact_value(event.arguments)
            event.provenance = redact_value(event.provenance)
            if event.cwd:
                event.cwd = redact_text(event.cwd)
        event.text = clean(event.text)
        state = self._session(stream, event.session)
        previous_turn = state.turn
        seq, turn_seq, ordinal, opened = state.next_position(event)
        batch = self.batch
        if opened and previous_turn is not None:
            batch.keep_turn(state.key, previous_turn)
        timestamp = to_utc(event.timestamp)
        ts_ms = to_ms(timestamp)  # events and postings take epoch milliseconds (the driver's fast path)
        if event.model:
            state.model = event.model
        state.add(seq, event, ts_ms)
        terms, doc_len = posting_terms(event)
        source = stream.source
        row = event_row(
            event, state.key, seq, turn_seq, ordinal, ts_ms, state.model, doc_len, stream.id, item
        )
        batch.add_event(row)
        if terms:
            batch.add_postings(
                terms, doc_len, (state.key, seq, event.type.value, ts_ms), stream.id, item.offset
            )
        if event.type is EventType.TOOL_CALL and not event.is_moraine_tool:
            ctx = TouchContext(
                state.key,
                seq,
                turn_seq,
                source.harness,
                source.name,
                timestamp,
                event.cwd,
                stream.id,
                item.offset,
            )
            batch.touches.extend(extract_touches(event, ctx))
        batch.touch_session(state, stream.session_meta())
        self.tally.sessions.add(state.key)
        self.tally.events += 1
