"""Read what Antigravity keeps in the clear about one conversation, found by its conversation file.

Antigravity (IDE, ``~/.gemini/antigravity/``) and the Antigravity CLI (``~/.gemini/antigravity-cli/``) keep a
conversation's steps in ``conversations/<id>.db`` (SQLite rows of protobuf without a published schema) or, in older
CLI releases, ``conversations/<id>.pb`` (AES-encrypted). Neither is read. The stream is that conversation file
(it changes as the conversation goes on); its records are built from the plain files beside it:

- ``history.jsonl`` in the CLI's folder, one typed prompt a line ``{display, timestamp (ms), workspace,
  conversationId}``: the rows of this conversation, in file order;
- ``brain/<id>/*.md``, the task, plan and walkthrough documents the agent writes, with ``<name>.md.metadata.json``
  ``{artifactType, summary, updatedAt}``; a rewritten document is a new version.

Every pass yields every record again (documents are rewritten, prompts are appended to a shared log) and the
position never advances: each record carries a ``key`` and the adapter emits a key once. History is parsed once
per version of ``history.jsonl`` per reader. A ``.pb`` conversation that also has a ``.db`` is read through the
``.db`` only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from moraine.harness_api.model import RawRecord
from moraine.harness_api.reader import ReadItem

__all__ = ["ARTIFACT_RECORD", "PROMPT_RECORD", "AntigravityReader"]

PROMPT_RECORD = "antigravity_prompt"
ARTIFACT_RECORD = "antigravity_artifact"
_MAX_DOCUMENT_BYTES = 4 * 1024 * 1024


class AntigravityReader:
    """Yield the readable records of one Antigravity conversation (see the module docstring)."""

    byte_offsets = False

    def __init__(self) -> None:
        self._history: tuple[tuple[str, int, int], dict[str, list[dict[str, Any]]]] | None = None

    def read(self, path: Path, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield every readable record of the conversation ``path`` names (the position stays at 0)."""
        if path.suffix == ".pb" and path.with_suffix(".db").exists():
            return
        conversation, root = path.stem, path.parent.parent
        records = [
            *self._prompts(root / "history.jsonl", conversation),
            *_artifacts(root / "brain" / conversation),
        ]
        for position, record in enumerate(records):
            yield ReadItem(RawRecord(record, position + 1, position), None, 0, line_no, 0, line_no)

    def _prompts(self, history: Path, conversation: str) -> list[dict[str, Any]]:
        try:
            stat = history.stat()
        except OSError:
            return []
        version = (str(history), stat.st_mtime_ns, stat.st_size)
        if self._history is None or self._history[0] != version:
            self._history = (version, _history_by_conversation(history))
        return self._history[1].get(conversation, [])


def _history_by_conversation(history: Path) -> dict[str, list[dict[str, Any]]]:
    """Return the prompt records of ``history.jsonl`` by conversation id (unreadable lines are skipped)."""
    found: dict[str, list[dict[str, Any]]] = {}
    try:
        with history.open("rb") as handle:
            for line_no, line in enumerate(handle, start=1):
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                conversation = row.get("conversationId") if isinstance(row, dict) else None
                if isinstance(conversation, str) and conversation:
                    key = f"prompt:{line_no}:{hashlib.sha256(line).hexdigest()[:12]}"
                    found.setdefault(conversation, []).append(
                        {"record": PROMPT_RECORD, "key": key, "row": row}
                    )
    except OSError:
        return found
    return found


def _artifacts(brain: Path) -> Iterator[dict[str, Any]]:
    """Yield one record per document in ``brain`` (name order), keyed by its name and content."""
    try:
        documents = sorted(p for p in brain.glob("*.md") if p.is_file())
    except OSError:
        return
    for document in documents:
        try:
            body = document.read_bytes()[:_MAX_DOCUMENT_BYTES]
        except OSError:
            continue
        try:
            meta = json.loads((brain / f"{document.name}.metadata.json").read_bytes())
        except (OSError, ValueError):
            meta = {}
        key = f"artifact:{document.name}:{hashlib.sha256(body).hexdigest()[:16]}"
        yield {
            "record": ARTIFACT_RECORD,
            "key": key,
            "name": document.name,
            "body": body.decode("utf-8", errors="replace"),
            "meta": meta if isinstance(meta, dict) else {},
        }
