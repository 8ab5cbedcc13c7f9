"""Look for a string in a ClickHouse store's files as they are on disk, compressed blocks decompressed.

Column files are sequences of compressed blocks: a 16-byte checksum, a method byte, the block's compressed size
(header included) and its decompressed size (little-endian 32-bit each), then the data. LZ4 (0x82) and ZSTD (0x90)
blocks are decompressed (ZSTD through the system's libzstd), uncompressed ones (0x02) read as they are; a file
that does not parse as blocks is searched as raw bytes only.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path

import lz4.block

__all__ = ["files_holding"]

_HEADER = 16 + 9
_NONE, _LZ4, _ZSTD = 0x02, 0x82, 0x90
_libzstd = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
_libzstd.ZSTD_decompress.restype = ctypes.c_size_t
_libzstd.ZSTD_decompress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]
_libzstd.ZSTD_isError.argtypes = [ctypes.c_size_t]


def _zstd(data: bytes, size: int) -> bytes:
    out = ctypes.create_string_buffer(size)
    written = _libzstd.ZSTD_decompress(out, size, data, len(data))
    if _libzstd.ZSTD_isError(written):
        raise ValueError("not a zstd frame")
    return out.raw[:written]


def _blocks(data: bytes) -> list[bytes]:
    """Return the decompressed blocks of a column file (stopping where it does not parse)."""
    found = []
    offset = 0
    while offset + _HEADER <= len(data):
        method = data[offset + 16]
        compressed = int.from_bytes(data[offset + 17 : offset + 21], "little")
        size = int.from_bytes(data[offset + 21 : offset + 25], "little")
        end = offset + 16 + compressed
        if method not in (_NONE, _LZ4, _ZSTD) or compressed < 9 or end > len(data) or size > 1 << 30:
            break
        payload = data[offset + _HEADER : end]
        try:
            if method == _LZ4:
                found.append(lz4.block.decompress(payload, uncompressed_size=size))
            elif method == _ZSTD:
                found.append(_zstd(payload, size))
            else:
                found.append(payload)
        except (ValueError, lz4.block.LZ4BlockError):
            break
        offset = end
    return found


def files_holding(root: Path, needle: str) -> list[str]:
    """Return every file under ``root`` whose bytes, or whose decompressed blocks, contain ``needle``."""
    wanted = needle.encode()
    hits = []
    for directory, _, names in os.walk(root):
        for name in names:
            path = Path(directory) / name
            try:
                data = path.read_bytes()
            except OSError:
                continue  # a part removed while we walked
            if wanted in data or any(wanted in block for block in _blocks(data)):
                hits.append(str(path))
    return hits
