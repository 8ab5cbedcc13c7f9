"""Data exports of chat services (ChatGPT, Claude.ai): find one, keep a copy, read it as a source.

An export is a ``.zip`` or its unpacked folder holding ``conversations.json`` (ChatGPT may shard it as
``conversations-000.json``, ...), or that file itself: one JSON array of conversations. Which service wrote it is
told by its first conversation: ChatGPT's have a ``mapping`` of message nodes, Claude.ai's a ``chat_messages``
list. ``place_export`` keeps the conversation files under ``<moraine home>/imports/<harness>/`` (rewritten only
when their content differs), so importing the same export twice reads nothing new and a newer export of the same
account replaces the older one's sessions. ``ExportReader`` yields one record per conversation, positioned by
its index.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from moraine.config import SourceConfig
from moraine.harnesses._shared.events import mark_final_answer
from moraine.ingest.model import Event, IngestError, RawRecord
from moraine.ingest.reader import ReadItem
from moraine.harnesses._shared.json_array import ArrayError, array_elements, stream_elements
from moraine.harnesses._shared.once import ReportsOnce

__all__ = [
    "ExportError",
    "ExportFiles",
    "ExportReader",
    "export_source",
    "find_export",
    "place_export",
    "with_answers",
]

_NAME = re.compile(r"^conversations(?:-\d+)?\.json$")
# What each service's conversations hold, and its harness value.
_KINDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "chatgpt": lambda conversation: isinstance(conversation.get("mapping"), dict),
    "claude-ai": lambda conversation: isinstance(conversation.get("chat_messages"), list),
}


class ExportError(ValueError):
    """The path is not a ChatGPT or Claude.ai export (the message says what was found instead)."""


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
        with zipfile.ZipFile(path) as archive:
            members = sorted(m for m in archive.namelist() if _NAME.match(m.rsplit("/", 1)[-1]))
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


@contextmanager
def _open(archive: Path | None, name: str, text: bool = True) -> Iterator[IO[Any]]:
    """Open the conversations file ``name``: a path, or a member of ``archive`` (as text, or as bytes)."""
    if archive is None:
        with open(name, encoding="utf-8-sig") if text else open(name, "rb") as handle:
            yield handle
        return
    with zipfile.ZipFile(archive) as opened, opened.open(name) as member:
        yield io.TextIOWrapper(member, encoding="utf-8-sig") if text else member


def imports_folder(home: Path, harness: str) -> Path:
    """Return where the conversation files of ``harness``'s export are kept."""
    return home / "imports" / harness


def place_export(found: ExportFiles, home: Path) -> list[Path]:
    """Keep the export's conversation files under the imports folder; return their paths there.

    A file whose content is already there is left untouched (its identity unchanged, so nothing is re-read);
    another is written beside and moved in place; files of an older export that this one lacks are removed.
    """
    folder = imports_folder(home, found.harness)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    placed: list[Path] = []
    for name in found.files:
        target = folder / name.rsplit("/", 1)[-1].rsplit(os.sep, 1)[-1]
        with _open(found.archive, name, text=False) as source:
            _copy_if_changed(source, target)
        placed.append(target)
    for stale in folder.glob("conversations*.json"):
        if stale not in placed:
            stale.unlink()
    return placed


def _copy_if_changed(source: IO[bytes], target: Path) -> None:
    with tempfile.NamedTemporaryFile("wb", dir=target.parent, delete=False, suffix=".part") as copy:
        digest = hashlib.sha256()
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
            copy.write(block)
    if target.exists() and _digest(target) == digest.hexdigest():
        Path(copy.name).unlink()
        return
    os.replace(copy.name, target)


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def export_source(harness: str, home: Path) -> SourceConfig:
    """Return the source that reads ``harness``'s kept export (never watched: ``moraine import`` runs it)."""
    folder = imports_folder(home, harness)
    reader = f"{harness.replace('-', '_')}_export"
    return SourceConfig(harness, harness, str(folder / "conversations*.json"), str(folder), reader, False)


class ExportReader(ReportsOnce):
    """Yield one record per conversation of an export file, after the saved position (its index)."""

    byte_offsets = False

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield the conversations after position ``offset``; a file that stops decoding is reported once."""
        position = max(offset, 0)
        try:
            for index, conversation in enumerate(array_elements(path)):
                if index < position:
                    continue
                line_no += 1
                yield ReadItem(
                    RawRecord(conversation, line_no, index), None, index, line_no, index + 1, line_no
                )
                position = index + 1
        except FileNotFoundError:
            return
        except (ArrayError, UnicodeDecodeError) as exc:
            stat = path.stat()
            token = (str(path), stat.st_mtime_ns, stat.st_size)
            error = IngestError("malformed_export", f"{path.name}: {exc}")
            yield from self.once(token, error, position, line_no)


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
