"""Read an Amp thread file (``~/.local/share/amp/threads/T-<uuid>.json``), a JSON document Amp rewrote in place.

The document is ``{v, id, created (Unix ms), title, messages: [...], env: {initial: {trees: [{displayName, uri}]}},
meta}``. Records are its messages in order, each ``{record: "amp_message", thread: {id, started, title, cwd},
index, message}`` (the thread's fields ride along so a title set later still reaches the session). The file's
name is the thread id when the document has none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from moraine.harnesses._shared.fields import as_dict, as_list, as_str
from moraine.harnesses._shared.json_document import JsonDocumentReader, NotTheDocument

__all__ = ["MESSAGE_RECORD", "AmpThreadReader"]

MESSAGE_RECORD = "amp_message"


class AmpThreadReader(JsonDocumentReader):
    """One thread document -> one record per message."""

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the thread's messages with the thread's own fields (a document without messages is not a thread)."""
        if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
            raise NotTheDocument("not an Amp thread (no messages list)")
        tree = as_dict(
            next(iter(as_list(as_dict(as_dict(document.get("env")).get("initial")).get("trees"))), None)
        )
        uri = as_str(tree.get("uri"))
        thread = {
            "id": as_str(document.get("id")) or path.stem,
            "started": document.get("created"),
            "title": as_str(document.get("title")),
            "cwd": unquote(urlparse(uri).path) if uri and uri.startswith("file://") else None,
        }
        return [
            {"record": MESSAGE_RECORD, "thread": thread, "index": index, "message": message}
            for index, message in enumerate(document["messages"])
        ]
