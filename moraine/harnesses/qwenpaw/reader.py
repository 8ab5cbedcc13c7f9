"""Read QwenPaw (formerly CoPaw) session files: one JSON document each, saved whole after every reply.

``<workspace>/sessions/[<channel>/]<name>.json`` holds the agent's state ``{agent: {memory: {content: [[message,
[marks]], ...]}, name, ...}}``. Position ``i`` is entry ``i`` of the memory; each pass yields the entries after
the saved position. An entry that is not ``[message, ...]`` is passed on as it is (the adapter reports it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moraine.harnesses._shared.json_document import NotTheDocument, SessionDocumentReader

__all__ = ["ENTRY_RECORD", "QwenPawSessionReader"]

ENTRY_RECORD = "qwenpaw_entry"


class QwenPawSessionReader(SessionDocumentReader):
    """Yield a session file's memory entries after the saved position."""

    reopen_last = False  # QwenPaw saves its memory after a message is complete
    shape = "a QwenPaw session"

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return one record per memory entry, with the agent's name."""
        agent = document.get("agent") if isinstance(document, dict) else None
        memory = agent.get("memory") if isinstance(agent, dict) else None
        content = memory.get("content") if isinstance(memory, dict) else None
        if not isinstance(content, list):
            raise NotTheDocument("no agent.memory.content list")
        name = agent.get("name") if isinstance(agent, dict) else None
        return [
            {"record": ENTRY_RECORD, "index": index, "agent": name, "entry": entry}
            for index, entry in enumerate(content)
        ]
