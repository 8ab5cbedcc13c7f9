"""Watch mode: re-ingest files as they change (watchdog events, debounced) plus a periodic full rescan.

Appended lines become searchable within about a second: a change event wakes the loop, which waits a short
debounce, then ingests only the changed files of the sources they belong to.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from moraine.config import SourceConfig
from moraine.errors import StoreError
from moraine.ingest.discovery import matches
from moraine.ingest.pipeline import Ingestor, IngestSummary

__all__ = ["watch"]

logger = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 0.05


class _Dirty(FileSystemEventHandler):
    """Collect changed paths and wake the loop."""

    def __init__(self) -> None:
        self.paths: set[Path] = set()
        self.lock = threading.Lock()
        self.wake = threading.Event()

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory:
            return
        with self.lock:
            for raw in (event.src_path, getattr(event, "dest_path", "")):
                if raw:
                    self.paths.add(Path(raw if isinstance(raw, str) else raw.decode()))
        self.wake.set()

    def take(self) -> set[Path]:
        with self.lock:
            taken, self.paths = self.paths, set()
            self.wake.clear()
        return taken


def watch(
    ingestor: Ingestor,
    sources: Sequence[SourceConfig],
    rescan_seconds: float = 30.0,
    on_pass: Callable[[IngestSummary], None] | None = None,
) -> None:
    """Ingest ``sources`` now, then keep ingesting changes until ``ingestor.stop`` is set."""
    dirty = _Dirty()
    observer = Observer()
    watched: set[Path] = set()
    for source in sources:
        root = source.expanded_watch_root()
        if root.is_dir() and root not in watched:
            observer.schedule(dirty, str(root), recursive=True)
            watched.add(root)
    observer.start()
    try:
        next_rescan = 0.0
        while not ingestor.stop.is_set():
            now = time.monotonic()
            if now >= next_rescan:
                dirty.take()
                _run(ingestor, sources, None, on_pass)
                next_rescan = time.monotonic() + rescan_seconds
                continue
            woke = dirty.wake.wait(timeout=min(next_rescan - now, 0.5))
            if ingestor.stop.is_set():
                break
            if not woke:
                continue
            time.sleep(DEBOUNCE_SECONDS)  # let a burst of writes settle into one pass (not synchronization)
            changed = dirty.take()
            by_source: dict[str, list[Path]] = {}
            for path in sorted(changed):
                for source in sources:
                    if matches(source, path) and path.is_file():
                        by_source.setdefault(source.name, []).append(path)
                        break
            if by_source:
                chosen = [s for s in sources if s.name in by_source]
                _run(ingestor, chosen, by_source, on_pass)
    finally:
        observer.stop()
        observer.join(timeout=5)


def _run(
    ingestor: Ingestor,
    sources: Sequence[SourceConfig],
    paths: dict[str, list[Path]] | None,
    on_pass: Callable[[IngestSummary], None] | None,
) -> None:
    """Run one pass; a store failure is logged and the pass retried on the next wake-up or rescan."""
    try:
        summary = ingestor.run(sources, paths)
    except StoreError:
        logger.exception("ingest pass failed; retrying on the next change or rescan")
        return
    if on_pass is not None:
        on_pass(summary)
