"""The daemon's ingest: backfill every enabled source, then watch them, in a background thread that survives errors."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from moraine.config import Config
from moraine.ingest.pipeline import Ingestor, IngestSummary
from moraine.ingest.progress import PassProgress
from moraine.ingest.watch import watch
from moraine.mirror.worker import MirrorWorker
from moraine.ingest.project_backfill import backfill_projects
from moraine.store.client import Store

__all__ = ["BackgroundIngest"]

logger = logging.getLogger("moraine.daemon.ingest")
_RETRY_SECONDS = 5.0
_LOG_PROGRESS_SECONDS = 10.0


class BackgroundIngest:
    """Backfill then watch ``config``'s enabled sources until ``stop`` is set; ``backfilled`` marks the first pass."""

    def __init__(
        self, store: Store, config: Config, progress: Callable[[PassProgress], None] | None = None
    ) -> None:
        self.store = store
        self.config = config
        self.stop = threading.Event()
        self.backfilled = threading.Event()
        self.last_error: str | None = None
        self._progress = progress
        self.backfill = (
            PassProgress()
        )  # the first pass: files, events, rate and time left (``moraine status``)
        self._logged_at = 0.0
        self._thread = threading.Thread(target=self._run, name="moraine-ingest", daemon=True)
        self._mirror = MirrorWorker.from_config(store, config)  # None without backends; runs beside ingest

    def start(self) -> None:
        self._thread.start()

    def shutdown(self, timeout: float = 30.0) -> None:
        """Ask the ingest to stop after the file it is on and wait for it (bounded)."""
        self.stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
            if self._thread.is_alive():
                logger.warning("ingest did not stop within %.0f s", timeout)

    def _run(self) -> None:
        sources = [s for s in self.config.sources if s.enabled]
        logger.info("backfill of %d source(s): %s", len(sources), ", ".join(s.name for s in sources))
        try:
            backfill_projects(self.store)  # sessions indexed before projects were recorded
        except Exception:  # a store hiccup here must not stop ingest; the next start tries again
            logger.exception("recording the projects of older sessions failed")
        while not self.stop.is_set():
            ingestor = Ingestor(
                self.store,
                batch_size=self.config.batch_size,
                redact=self.config.redact,
                progress=None if self.backfilled.is_set() else self._report,
                stop=self.stop,
                workers=self.config.workers,
            )

            def on_pass(summary: IngestSummary, ingestor: Ingestor = ingestor) -> None:
                self._on_pass(summary, ingestor)

            try:
                watch(ingestor, sources, self.config.rescan_seconds, on_pass)
            except Exception as exc:  # keep serving: the store or a source may recover
                self.last_error = f"{type(exc).__name__}: {exc}"
                logger.exception("ingest failed; retrying in %.0f s", _RETRY_SECONDS)
                self.stop.wait(_RETRY_SECONDS)

    def _report(self, done: int, total: int, events: int) -> None:
        self.backfill.update(done, total, events)
        if self._progress is not None:
            self._progress(self.backfill)
        now = time.monotonic()
        if now - self._logged_at >= _LOG_PROGRESS_SECONDS or done == total:
            self._logged_at = now
            logger.info("backfill: %s", self.backfill.line())

    def _on_pass(self, summary: IngestSummary, ingestor: Ingestor) -> None:
        if self._mirror is not None:
            self._mirror.kick()  # never waits: a backend that is down only delays mirroring
        if not self.backfilled.is_set():
            self.backfill.finish()
            self.backfilled.set()
            ingestor.progress = None
            logger.info(
                "backfill done: %d files (%d unchanged, %d re-read for a changed adapter), %d sessions, %d events, "
                "%d errors in %.1f s",
                summary.files,
                summary.unchanged,
                summary.reread,
                summary.sessions,
                summary.events,
                summary.errors,
                summary.seconds,
            )
            if summary.no_adapter:
                logger.info("sources without an adapter: %s", ", ".join(summary.no_adapter))
        elif summary.events or summary.errors or summary.rewritten or summary.reread:
            logger.info(
                "ingested %d events from %d files (%d errors, %d rewritten, %d re-read for a changed adapter) in "
                "%.3f s",
                summary.events,
                summary.files - summary.unchanged,
                summary.errors,
                summary.rewritten,
                summary.reread,
                summary.seconds,
            )
