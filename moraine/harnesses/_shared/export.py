"""Data exports of chat services (ChatGPT, Claude.ai): find one, check it, read it where it lies.

An export is a ``.zip`` or its unpacked folder holding ``conversations.json`` (ChatGPT may shard it as
``conversations-000.json``, ...), or that file itself: one JSON array of conversations. Which service wrote it is
told by its first conversation: ChatGPT's have a ``mapping`` of message nodes, Claude.ai's a ``chat_messages``
list. Moraine keeps no copy of it (a copy was an unredacted second home of everything the user said, which
``forget`` did not reach): ``moraine import`` reads the .zip, or the conversation files, in place, each one a
stream. ``ExportReader`` yields one record per conversation (across a zip's conversation files, in name order),
positioned by its index.

A zip is checked before anything in it is read: the conversation files' declared sizes (at most
``MAX_EXPORT_BYTES`` in all) and compression ratios (at most ``MAX_RATIO`` for a file over ``RATIO_FLOOR``), and,
while reading, the bytes each really yields against its declared size.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from moraine.harnesses._shared.events import mark_final_answer
from moraine.harness_api.model import Event, IngestError, RawRecord
from moraine.harness_api.reader import ReadItem
from moraine.harnesses._shared.json_array import ArrayError, array_elements, stream_elements
from moraine.harnesses._shared.once import ReportsOnce

__all__ = [
    "MAX_EXPORT_BYTES",
    "MAX_RATIO",
    "RATIO_FLOOR",
    "ExportError",
    "ExportFiles",
    "ExportReader",
    "ExportTooLarge",
    "find_export",
    "legacy_copies",
    "with_answers",
]

_NAME = re.compile(r"^conversations(?:-\d+)?\.json$")
# What each service's conversations hold, and its harness value.
_KINDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "chatgpt": lambda conversation: isinstance(conversation.get("mapping"), dict),
    "claude-ai": lambda conversation: isinstance(conversation.get("chat_messages"), list),
}
# Zip bounds. JSON exports deflate 5-20x (repeated keys); deflate itself stops near 1,030x, which is what a bomb
# uses: a 1 MB zip held a 1.07 GB conversations file. The total is far above the largest exports reported
# (hundreds of MB) and bounds the time an import may take.
# A file that decompresses to less than RATIO_FLOOR is never refused for its ratio (tiny files compress well).
MAX_RATIO = 100
RATIO_FLOOR = 1 << 20
MAX_EXPORT_BYTES = 4 << 30


class ExportError(ValueError):
    """The path is not a ChatGPT or Claude.ai export (the message says what was found instead)."""


class ExportTooLarge(ExportError):
    """A zip's conversation files decompress to more than the bounds allow (the message says which, by how much)."""


@dataclass(frozen=True, slots=True)
class ExportFiles:
    """An export found: the service's harness value and how to open each of its conversation files, by name."""

    harness: str
    archive: Path | None  # the .zip the files are members of, or None for files on disk
    files: tuple[str, ...]  # member names in the archive, or paths on disk


def find_export(path: Path) -> ExportFiles:
    """Return the export at ``path`` (a .zip, a folder or a conversations file) and which service wrote it.

    Raises:
        ExportError: no conversations file is there, or its conversations are of neither service.
    """
    if path.is_dir():
        files = sorted(str(p) for p in path.rglob("*.json") if _NAME.match(p.name))
        return _identified(None, files, f"no conversations.json in {path}")
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                members = _members(archive)
                _check_archive(archive, members)
        except zipfile.BadZipFile as exc:
            raise ExportError(f"{path} is not a readable zip: {exc}") from exc
        return _identified(path, members, f"no conversations.json in the archive {path}")
    return _identified(None, [str(path)], "")


def _identified(archive: Path | None, files: list[str], missing: str) -> ExportFiles:
    if not files:
        raise ExportError(missing)
    first = files[0]
    try:
        with _open(archive, first) as handle:
            conversation = next(stream_elements(handle), None)
    except (ArrayError, OSError, UnicodeDecodeError) as exc:
        raise ExportError(f"{first} is neither a ChatGPT nor a Claude.ai export: {exc}") from exc
    if conversation is None:
        raise ExportError(f"{first} holds no conversations")
    for harness, holds in _KINDS.items():
        if isinstance(conversation, dict) and holds(conversation):
            return ExportFiles(harness, archive, tuple(files))
    raise ExportError(
        f"{first} is neither a ChatGPT export (conversations with a 'mapping') nor a Claude.ai export "
        "(conversations with 'chat_messages')"
    )


def _members(archive: zipfile.ZipFile) -> list[str]:
    return sorted(m for m in archive.namelist() if _NAME.match(m.rsplit("/", 1)[-1]))


def _check_archive(archive: zipfile.ZipFile, members: list[str]) -> None:
    """Refuse an archive whose conversation files declare too much, or too much per compressed byte.

    Raises:
        ExportTooLarge: a bound is exceeded (see the module docstring).
    """
    total = 0
    for name in members:
        info = archive.getinfo(name)
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_FLOOR and ratio > MAX_RATIO:
            raise ExportTooLarge(
                f"{name} would decompress from {_size(info.compress_size)} to {_size(info.file_size)} "
                f"({ratio:,.0f} times; an export is at most {MAX_RATIO} times): not read, as a zip bomb"
            )
        if total > MAX_EXPORT_BYTES:
            raise ExportTooLarge(
                f"the conversation files would decompress to more than {_size(MAX_EXPORT_BYTES)}: not read"
            )


def _size(size: int) -> str:
    return f"{size / 1e6:,.1f} MB" if size >= 100_000 else f"{size:,} bytes"


class _Bounded(io.RawIOBase):
    """A zip member read no further than its declared size (a header that lies is an error, not more data)."""

    def __init__(self, member: IO[bytes], name: str, declared: int) -> None:
        self._member, self._name, self._left = member, name, declared

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self._member.read(len(view))
        if len(data) > self._left:
            raise ExportTooLarge(f"{self._name} holds more than its declared size: not read further")
        self._left -= len(data)
        view[: len(data)] = data
        return len(data)


@contextmanager
def _open(archive: Path | None, name: str) -> Iterator[IO[str]]:
    """Open the conversations file ``name`` as text: a path, or a member of ``archive`` (bounded, see above)."""
    if archive is None:
        with open(name, encoding="utf-8-sig") as handle:
            yield handle
        return
    with zipfile.ZipFile(archive) as opened, opened.open(name) as member:
        bounded = io.BufferedReader(_Bounded(member, name, opened.getinfo(name).file_size))
        yield io.TextIOWrapper(bounded, encoding="utf-8-sig")


def _zip_elements(path: Path) -> Iterator[Any]:
    """Yield the conversations of every conversation file of the zip ``path``, after checking its bounds."""
    with zipfile.ZipFile(path) as archive:
        members = _members(archive)
        _check_archive(archive, members)
    for name in members:
        with _open(path, name) as handle:
            yield from stream_elements(handle)


def legacy_copies(home: Path) -> Path:
    """Return where ``moraine import`` kept raw copies of exports before it read them in place (removed on sight)."""
    return home / "imports"


class ExportReader(ReportsOnce):
    """Yield one record per conversation of an export file, after the saved position (its index)."""

    byte_offsets = False

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the conversations after position ``offset``; a file that stops decoding, or a zip over the
        bounds, is reported once."""
        position = max(offset, 0)
        try:
            elements = _zip_elements(path) if zipfile.is_zipfile(path) else array_elements(path)
            for index, conversation in enumerate(elements):
                if index < position:
                    continue
                line_no += 1
                yield ReadItem(
                    RawRecord(conversation, line_no, index), None, index, line_no, index + 1, line_no
                )
                position = index + 1
        except FileNotFoundError:
            return
        except (ArrayError, UnicodeDecodeError, ExportError, zipfile.BadZipFile) as exc:
            stat = path.stat()
            token = (str(path), stat.st_mtime_ns, stat.st_size)
            reason = "export_too_large" if isinstance(exc, ExportTooLarge) else "malformed_export"
            yield from self.once(token, IngestError(reason, f"{path.name}: {exc}"), position, line_no)


def with_answers(events: list[Event]) -> list[Event]:
    """Mark each turn's last assistant response as its answer (an export holds only finished conversations)."""
    turn: list[Event] = []
    for event in events:
        if event.starts_turn:
            mark_final_answer(turn)
            turn = []
        turn.append(event)
    mark_final_answer(turn)
    return events
