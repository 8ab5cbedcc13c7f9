"""Frames between the ingest process and its workers: a header (length, job id, last flag) and a pickle.

The header lets the parent's reader threads route and count a frame without unpickling it (that happens on the
thread that merges it). Both ends are our own processes, started from the same installation: pickle is safe here.
"""

from __future__ import annotations

import pickle
import struct
from typing import IO, Any

__all__ = ["read_frame", "read_raw", "write_frame"]

_HEADER = struct.Struct("<QqB")


def write_frame(out: IO[bytes], value: Any, job: int = 0, last: bool = False) -> None:
    """Write ``value`` as one frame and flush."""
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_HEADER.pack(len(payload), job, int(last)))
    out.write(payload)
    out.flush()


def read_raw(source: IO[bytes]) -> tuple[int, bool, bytes] | None:
    """Return the next frame's job id, last flag and payload; None at the end of the stream."""
    header = source.read(_HEADER.size)
    if len(header) < _HEADER.size:
        if header:
            raise EOFError("a frame header was cut short")
        return None
    size, job, last = _HEADER.unpack(header)
    payload = source.read(size)
    if len(payload) < size:
        raise EOFError("a frame was cut short")
    return job, bool(last), payload


def read_frame(source: IO[bytes]) -> Any:
    """Return the next frame's value; None at the end of the stream."""
    raw = read_raw(source)
    return None if raw is None else pickle.loads(raw[2])
