"""Stream identity: a stable id per (source, path) and a file fingerprint that detects truncation and rewrites.

The fingerprint is the device and inode plus a hash of the file's first bytes (up to the checkpoint offset, at most
``PREFIX_BYTES``). A file whose inode changed, that shrank below the checkpoint, or whose prefix changed has been
rewritten: its rows are replaced, never duplicated.
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

    def unchanged(self, stat: os.stat_result) -> bool:
        """Return whether a stat shows the same file with no new bytes (no read needed)."""
        return (
            stat.st_dev == self.dev
            and stat.st_ino == self.ino
            and stat.st_size == self.size
            and stat.st_mtime_ns == self.mtime_ns
        )


def fingerprint(path: Path, stat: os.stat_result, prefix_len: int) -> FileIdentity:
    """Fingerprint ``path`` hashing its first ``prefix_len`` bytes (capped at ``PREFIX_BYTES`` and the size)."""
    length = min(prefix_len, PREFIX_BYTES, stat.st_size)
    with path.open("rb") as handle:
        prefix = handle.read(length)
    return FileIdentity(
        stat.st_dev,
        stat.st_ino,
        stat.st_size,
        stat.st_mtime_ns,
        len(prefix),
        hashlib.sha256(prefix).hexdigest(),
    )
