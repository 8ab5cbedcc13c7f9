"""Stream identity: a stable id per (source, path) and a file fingerprint that detects truncation and rewrites.

The fingerprint is the device and inode plus hashes of two windows of at most ``PREFIX_BYTES`` before the checkpoint
offset: the file's first bytes and the bytes just before the offset (where reading resumes). A file whose inode
changed, that shrank below the checkpoint, or whose first or last read bytes changed has been rewritten: its rows
are replaced, never duplicated. The second window catches a rewrite that keeps the head (a long first record):
resuming there would read the middle of a new record.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

__all__ = ["PREFIX_BYTES", "FileIdentity", "fingerprint", "stream_id"]

PREFIX_BYTES = 4096


def stream_id(source: str, path: Path) -> int:
    """Return the stable 64-bit id of the stream ``path`` of ``source`` (never 0)."""
    digest = hashlib.sha256(f"moraine:stream:v1\0{source}\0{path}".encode()).digest()
    return int.from_bytes(digest[:8], "big") or 1


@dataclass(frozen=True, slots=True)
class FileIdentity:
    dev: int
    ino: int
    size: int
    mtime_ns: int
    prefix_len: int
    prefix_sha: str
    tail_len: int = 0  # 0: a checkpoint written before the tail window existed (not compared)
    tail_sha: str = ""

    def dumps(self) -> str:
        """Serialize for the checkpoint row."""
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> FileIdentity | None:
        """Parse a checkpoint's identity (None when absent or unreadable)."""
        try:
            data = json.loads(text)
            return cls(**data)
        except (ValueError, TypeError):
            return None

    def same_content(self, other: FileIdentity) -> bool:
        """Return whether ``other`` (taken at the same offset) hashes the same windows (tails only if both have one)."""
        if (self.prefix_len, self.prefix_sha) != (other.prefix_len, other.prefix_sha):
            return False
        if not self.tail_len or not other.tail_len:
            return True
        return (self.tail_len, self.tail_sha) == (other.tail_len, other.tail_sha)

    def unchanged(self, stat: os.stat_result) -> bool:
        """Return whether a stat shows the same file with no new bytes (no read needed)."""
        return (
            stat.st_dev == self.dev
            and stat.st_ino == self.ino
            and stat.st_size == self.size
            and stat.st_mtime_ns == self.mtime_ns
        )


def fingerprint(path: Path, stat: os.stat_result, offset: int, prefix_len: int | None = None) -> FileIdentity:
    """Fingerprint ``path`` at the checkpoint ``offset``: its first bytes and the bytes before ``offset``.

    Each window holds at most ``PREFIX_BYTES``; the first ``prefix_len`` bytes (default: up to ``offset``), the
    second ends at ``offset`` (fewer bytes when the file is shorter now).
    """
    length = min(offset if prefix_len is None else prefix_len, PREFIX_BYTES)
    start = max(0, offset - PREFIX_BYTES)
    with path.open("rb") as handle:
        prefix = handle.read(length)
        handle.seek(start)
        tail = handle.read(offset - start)
    return FileIdentity(
        stat.st_dev,
        stat.st_ino,
        stat.st_size,
        stat.st_mtime_ns,
        len(prefix),
        hashlib.sha256(prefix).hexdigest(),
        len(tail),
        hashlib.sha256(tail).hexdigest(),
    )
