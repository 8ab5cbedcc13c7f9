"""Moved trace files: a file now at a new path that is the same file a checkpoint read at a path that is gone.

A move within a file system keeps the inode, so the new path's device and inode find the checkpoint, and the bytes
the checkpoint read (its fingerprint's windows) must be where they were. Such a file is read again under its new
path and the old path's rows are replaced, as for a rewritten file: its sessions keep their keys (and their IDs)
instead of being indexed a second time beside the old copy. A copy to another file system (a new inode) is not
recognised: its sessions are kept apart under keys of their own, as for any two files holding one session.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from moraine.ingest.checkpoints import Checkpoint
from moraine.ingest.forgetting import FORGOTTEN_MARK
from moraine.ingest.identity import FileIdentity, fingerprint

__all__ = ["Inodes", "index_inodes", "moved_from"]

Inodes = dict[tuple[int, int], int]  # (device, inode) -> the stream id whose checkpoint saw that file


def index_inodes(checkpoints: Mapping[int, Checkpoint]) -> Inodes:
    """Index ``checkpoints`` by the device and inode of the file each one read."""
    found: Inodes = {}
    for sid, checkpoint in checkpoints.items():
        identity = FileIdentity.loads(checkpoint.file_identity)
        if identity is not None:
            found[(identity.dev, identity.ino)] = sid
    return found


def moved_from(
    checkpoints: Mapping[int, Checkpoint], index: Inodes, path: Path, stat: os.stat_result
) -> Checkpoint | None:
    """Return the checkpoint of the file ``path`` was before a move, or None when it is a new file."""
    sid = index.get((stat.st_dev, stat.st_ino))
    checkpoint = checkpoints.get(sid) if sid is not None else None
    if (
        checkpoint is None
        or checkpoint.path == str(path)
        or checkpoint.in_flight
        or checkpoint.state.get(FORGOTTEN_MARK)  # a forgotten file stays as it is: its sessions stay out
        or stat.st_size < checkpoint.offset
    ):
        return None
    try:
        if os.stat(checkpoint.path).st_ino == stat.st_ino:
            return None  # both paths name one file (a hard link): not a move
    except OSError:
        pass  # the old path is gone
    saved = FileIdentity.loads(checkpoint.file_identity)
    if saved is None:
        return None
    try:
        now = fingerprint(path, stat, checkpoint.offset, saved.prefix_len)
    except OSError:
        return None
    return checkpoint if saved.same_content(now) else None
