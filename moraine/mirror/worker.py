"""Run mirroring beside ingest: ``kick()`` after each publish starts a pass in a background thread (never waits)."""

from __future__ import annotations

import logging
import threading

from moraine.config import Config
from moraine.mirror.settings import MirrorSettings, mirror_settings
from moraine.mirror.sync import MirrorReport, mirror_once
from moraine.store.client import Store

__all__ = ["MirrorWorker"]

logger = logging.getLogger(__name__)


class MirrorWorker:
    """One background mirroring thread per store; kicks while a pass runs fold into one more pass."""

    def __init__(self, store: Store, settings: MirrorSettings) -> None:
        self.store = store
        self.settings = settings
        self.last: MirrorReport | None = None
        self._lock = threading.Lock()
        self._again = False
        self._thread: threading.Thread | None = None

    @classmethod
    def from_config(cls, store: Store, config: Config) -> MirrorWorker | None:
        """Return a worker when ``config`` names backends, else None.

        Raises:
            ConfigError: the backends or routes are malformed.
        """
        settings = mirror_settings(config)
        return cls(store, settings) if settings.backends else None

    def kick(self) -> None:
        """Start a pass now, or once more after the running one."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                self._again = True
                return
            self._thread = threading.Thread(target=self._run, name="moraine-mirror", daemon=True)
            self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the running pass (and the one it owes) to finish."""
        while True:
            with self._lock:
                thread = self._thread
            if thread is None:
                return
            thread.join(timeout)
            with self._lock:
                if self._thread is thread and not thread.is_alive():
                    return

    def _run(self) -> None:
        while True:
            try:
                self.last = mirror_once(self.store, self.settings)
            except Exception:  # mirroring must never stop ingest: log and try again on the next kick
                logger.exception("mirroring pass failed")
            with self._lock:
                if not self._again:
                    return
                self._again = False
