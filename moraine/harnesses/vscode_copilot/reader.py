"""Read VS Code chat sessions (``chatSessions/<id>.json`` snapshots and ``<id>.jsonl`` operation logs) by request.

VS Code keeps one file per chat session: older versions rewrite a JSON snapshot ``{version, sessionId,
creationDate, customTitle, requests: [...]}``, newer ones append an operation log (``oplog.replay``) that builds the
same object (its title, when the user gave none, is in the session index of the ``state.vscdb`` beside the
folder: ``index_title``). Either way the session grows by requests (one user prompt and the response to it), so positions count
requests: position ``i`` means the first ``i`` requests were read. Each pass rebuilds the session and yields the
requests after the saved position that are settled: every request but the last, and the last once VS Code stored
its ``result`` (it finished) or the file has been left alone for ``settle_seconds``. Each record carries the
session's metadata as it is now (a title set later reaches the adapter with the next request) and the workspace
folder from the ``workspace.json`` beside ``chatSessions``. A ``.json`` snapshot whose ``.jsonl`` log exists is the
same session in its old form and is skipped. A file that cannot be read as a session is reported once per version
of the file; an unknown format version once per file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.vscode import workspace_folder
from moraine.harnesses.vscode_copilot.oplog import replay
from moraine.harness_api.model import IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.whole_file import SettlingReader, load_whole
from moraine.harnesses._shared.sqlite import DatabaseBusy, open_read_only

__all__ = ["KNOWN_VERSIONS", "REQUEST_RECORD", "VscodeChatReader"]

REQUEST_RECORD = "vscode_chat_request"
KNOWN_VERSIONS = frozenset({1, 2, 3})
MAX_FILE_BYTES = 512 * 1024 * 1024
SETTLE_SECONDS = 600.0
_INDEX_KEY = "chat.ChatSessionStore.index"
_META_KEYS = ("version", "sessionId", "creationDate", "lastMessageDate", "customTitle", "initialLocation")


class VscodeChatReader(SettlingReader):
    """Yield a chat session file's settled requests after the saved position (see the module docstring)."""

    default_settle_seconds = SETTLE_SECONDS

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the settled requests after position ``offset`` (0 = nothing read yet)."""
        if path.suffix not in (".json", ".jsonl"):
            return  # a backup or temporary file beside the sessions
        if path.suffix == ".json" and path.with_suffix(".jsonl").is_file():
            return
        loaded = load_whole(path, MAX_FILE_BYTES, _load, "a chat session")
        if loaded.stat is None:  # the file is gone (load_whole names no problem without a stat)
            return
        if loaded.problem is not None:
            yield from self._problem(path, loaded.stat, loaded.problem, offset, line_no)
            return
        stat, (session, skipped) = loaded.stat, loaded.value
        if skipped:
            detail = f"{skipped} operation line(s) could not be applied"
            yield from self._problem(path, None, detail, offset, line_no)
        if not isinstance(session, dict) or not isinstance(session.get("requests"), list):
            yield from self._problem(
                path, stat, "not a chat session object (no requests list)", offset, line_no
            )
            return
        version = session.get("version")
        if version is not None and version not in KNOWN_VERSIONS:
            error = IngestError(
                "unknown_format_version", f"chat session version {version!r} (read as version 3)"
            )
            yield from self.once(("version", str(path)), error, offset, line_no)
        meta = {key: session[key] for key in _META_KEYS if key in session}
        meta.setdefault("sessionId", path.stem)
        if not meta.get("customTitle"):
            meta["indexTitle"] = index_title(path.parent.parent / "state.vscdb", str(meta["sessionId"]))
        cwd = workspace_folder(path.parent.parent)
        requests = session["requests"]
        last = requests[-1] if requests else None
        answered = self.idle(stat) or (isinstance(last, dict) and "result" in last)
        complete = len(requests) if answered else len(requests) - 1  # the last one is still being answered
        self.hold(path, complete < len(requests))
        for position in range(max(offset, 0), complete):
            request = requests[position]
            line_no += 1
            data = {
                "record": REQUEST_RECORD,
                "session": meta,
                "cwd": cwd,
                "index": position,
                "request": request,
            }
            yield ReadItem(RawRecord(data, line_no, position), None, position, line_no, position + 1, line_no)

    def _problem(self, path: Path, stat: Any, detail: str, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Report a problem with this version of the file (a rewrite or an append is a new version) once."""
        token = (str(path), stat.st_mtime_ns if stat else None, stat.st_size if stat else None, detail)
        yield from self.once(token, IngestError("malformed_session_file", detail), offset, line_no)


def index_title(database: Path, session_id: str) -> str | None:
    """Return the title VS Code's session index (``chat.ChatSessionStore.index`` in ``state.vscdb``) gives a session.

    The index is ``{version, entries: {<session id>: {sessionId, title, lastMessageDate, ...}}}``; a missing, busy
    or unreadable database gives None (the title is read again with the next request).
    """
    if not database.is_file():
        return None
    try:
        with open_read_only(database) as connection:
            row = connection.execute(
                "SELECT CAST(value AS TEXT) FROM ItemTable WHERE key = ?", (_INDEX_KEY,)
            ).fetchone()
        entry = json.loads(row[0])["entries"][session_id] if row and row[0] else None
    except (sqlite3.Error, DatabaseBusy, ValueError, KeyError, TypeError):
        return None
    title = entry.get("title") if isinstance(entry, dict) else None
    return title.strip() or None if isinstance(title, str) else None


def _load(path: Path) -> tuple[Any, int]:
    """Return the session object of a snapshot or an operation log, and how many log lines were skipped."""
    if path.suffix == ".jsonl":
        with path.open("rb") as handle:
            return replay(handle)
    return json.loads(path.read_bytes()), 0
