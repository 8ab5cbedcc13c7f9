"""One stream (a trace file) being ingested: its position, its adapter's and sessions' state, and its checkpoint.

A checkpoint taken mid-file (the reader has not reached the end yet: a batch filled up, or a read failed) records
the file's size as unknown (-1), so the next pass never mistakes the file for fully read and resumes at the offset.
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from moraine.config import SourceConfig
from moraine.harness_api.adapter import StreamContext
from moraine.ingest.batch import SessionMeta
from moraine.ingest.checkpoints import Checkpoint
from moraine.ingest.identity import FileIdentity, fingerprint
from moraine.harness_api.reader import Reader
from moraine.ingest.sessions import SessionState
from moraine.redact import redact_value

__all__ = ["UNKNOWN_SIZE", "Stream", "empty_checkpoint", "rewritten"]

UNKNOWN_SIZE = -1  # a mid-file checkpoint's file size: never equal to a stat's, so the file is read on


@dataclass(slots=True)
class Stream:
    source: SourceConfig
    id: int
    path: Path
    stat: os.stat_result
    ctx: StreamContext
    committed: Checkpoint | None
    offset: int = 0
    line_no: int = 0
    generation: int = 0
    sessions: dict[str, SessionState] = field(default_factory=dict)
    byte_offsets: bool = True  # else positions are not bytes and the fingerprint hashes nothing
    meta: SessionMeta | None = None
    finished: bool = False  # the reader reached the end of the file (this pass)
    saved: dict[str, Any] | None = None  # the state a worker saved at ``offset`` (already redacted if asked)
    released: list[int] = field(default_factory=list)  # keys of a rewritten stream's old sessions, to give up
    revision: int = 1  # its harness's revision (``Harness.revision``): what its checkpoints record

    def state(self, redact: bool) -> dict[str, Any]:
        """Return the state to save at the current position: the adapter's and the sessions', as plain JSON.

        With ``redact`` the saved state is redacted like the rows are (an adapter may hold text it has not emitted
        yet, such as Claude Code's pending summaries); the state in memory stays as the adapter left it.
        """
        if self.saved is not None:
            return self.saved
        state = {
            "adapter": self.ctx.state,
            "sessions": {sid: s.to_json() for sid, s in self.sessions.items()},
        }
        saved: dict[str, Any] = json.loads(json.dumps(state, default=str))
        if redact:
            saved = redact_value(saved)
        return saved

    def checkpoint(self, redact: bool) -> Checkpoint:
        """Return the checkpoint of the current position (consistent with the current state)."""
        identity = fingerprint(self.path, self.stat, self.offset if self.byte_offsets else 0)
        if not self.finished:
            identity = replace(identity, size=UNKNOWN_SIZE)
        return Checkpoint(
            self.id,
            self.source.name,
            str(self.path),
            identity.dumps(),
            self.offset,
            self.line_no,
            self.state(redact),
            self.generation,
            self.revision,
        )

    def resume(self, committed: Checkpoint) -> None:
        """Take the position of ``committed`` and a copy of its state.

        A copy, never the saved objects themselves: the adapter writes what it reads into its state (a title, a
        first prompt) unredacted, and ``committed`` is written again as the stream's in-flight marker; sharing
        would put that text on disk.
        """
        self.offset, self.line_no = committed.offset, committed.line_no
        adapter_state = committed.state.get("adapter")
        self.ctx.state = copy.deepcopy(adapter_state) if isinstance(adapter_state, dict) else {}
        for harness_sid, saved in committed.saved_sessions().items():
            self.sessions[harness_sid] = SessionState.from_json(copy.deepcopy(saved))

    def session_meta(self) -> SessionMeta:
        """Return what this stream's session rows say about their origin (one object per stream and generation)."""
        meta = self.meta
        if meta is None or meta.generation != self.generation:
            meta = SessionMeta(
                self.source.name, self.source.harness, self.id, str(self.path), self.generation
            )
            self.meta = meta
        return meta


def empty_checkpoint(stream: Stream) -> Checkpoint:
    """Return the in-flight marker of a stream never committed before."""
    return Checkpoint(
        stream.id, stream.source.name, str(stream.path), "", 0, 0, {}, stream.generation, stream.revision
    )


def rewritten(
    committed: Checkpoint, saved: FileIdentity | None, path: Path, stat: os.stat_result, reader: Reader
) -> bool:
    """Return whether the file behind ``committed`` was truncated or rewritten since."""
    if saved is None:
        return committed.offset > 0
    if (stat.st_dev, stat.st_ino) != (saved.dev, saved.ino):
        return True
    if not reader.byte_offsets:
        return False
    if stat.st_size < committed.offset:
        return True
    return not saved.same_content(fingerprint(path, stat, committed.offset, saved.prefix_len))
