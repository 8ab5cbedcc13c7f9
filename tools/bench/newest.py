"""Newest first, measured: how soon a session written just before a first backfill is found by search_sessions.

Before the ingest child starts, a short Claude Code session holding a word found nowhere else is written under the
benchmark's home (its own source, ``bench-newest``, so the corpus is never modified): the newest file of the pass.
The child polls ``search_sessions`` for that word from the moment its store is open, through the server's own
dispatch, and reports the seconds from its launch until the first hit and how many files the pass had read by then.
The probe's rows are left out of the checksums, so they stay comparable with runs made without it.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from moraine.ingest.progress import PassProgress
from moraine.store.client import Store
from tools.bench.cases import search_args
from tools.bench.client import ToolFailed, open_client
from tools.corpus.trace import iso

__all__ = ["NEWEST_SOURCE", "NewestProbe", "plant_newest"]

Json = dict[str, Any]
NEWEST_SOURCE = "bench-newest"
_POLL_SECONDS = 0.1  # the probe's polling interval (a measurement's resolution, not synchronization)


def plant_newest(home: Path) -> Json:
    """Write the probe session under ``home`` (mtime now: the newest file) and return its source and word."""
    session = str(uuid.uuid4())
    word = f"zqnewestprobe{uuid.uuid4().hex[:10]}"
    root = home / "newest"
    path = root / "-home-dev-src-newest" / f"{session}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    now = int(time.time() * 1000)  # ms
    user = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/src/newest",
        "sessionId": session,
        "version": "2.0.31",
        "type": "user",
        "message": {"role": "user", "content": f"where did we leave the {word} migration?"},
        "uuid": str(uuid.uuid4()),
        "timestamp": iso(now - 30_000),
    }
    assistant = {
        **user,
        "parentUuid": user["uuid"],
        "type": "assistant",
        "message": {
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": f"The {word} migration stopped at step three."}],
        },
        "uuid": str(uuid.uuid4()),
        "timestamp": iso(now),
    }
    path.write_text(json.dumps(user) + "\n" + json.dumps(assistant) + "\n", encoding="utf-8")
    return {"source": NEWEST_SOURCE, "glob": str(root / "**" / "*.jsonl"), "word": word, "session": session}


class NewestProbe:
    """Polls ``search_sessions`` for ``word`` on a thread of the ingest process until it is found or stopped."""

    def __init__(self, store: Store, word: str, launched: float, progress: PassProgress) -> None:
        self._store = store
        self._word = word
        self._launched = launched  # time.time() when the ingest process was started
        self._progress = progress  # the pass's own progress (files read so far, of how many)
        self._stop = threading.Event()
        self.result: Json | None = None
        self._thread = threading.Thread(target=self._run, name="bench-newest-probe", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with open_client(self._store) as client:
            while not self._stop.is_set():
                try:
                    hits = client.call("search_sessions", search_args(self._word))["results"]
                except ToolFailed:
                    hits = []
                if hits:
                    seconds = time.time() - self._launched
                    where = self._progress.snapshot()
                    self.result = {
                        "seconds": round(seconds, 2),
                        "files_read": where["files_done"],
                        "files_total": where["files_total"],
                    }
                    return
                self._stop.wait(_POLL_SECONDS)

    def finish(self) -> Json:
        """Stop polling (the pass is over) and return the finding (``seconds`` None: the word was never found)."""
        self._stop.set()
        self._thread.join()
        return self.result or {"seconds": None}
