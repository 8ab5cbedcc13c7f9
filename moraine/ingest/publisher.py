"""The publisher: writes one batch at a time in a background thread while the ingest thread reads the next one.

chDB's inserts release the GIL, so the store's work overlaps the Python work of the next batch. One batch is in
flight at most: ``start`` requires the previous one settled, ``settle`` waits for it and re-raises its failure.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from moraine.ingest.batch import Batch
from moraine.ingest.checkpoints import Checkpoint
from moraine.store.client import Store

__all__ = ["Publisher"]


@dataclass(slots=True)
class _Job:
    batch: Batch
    checkpoints: list[Checkpoint]
    markers: list[Checkpoint]
    failure: BaseException | None = None

    def run(self, store: Store) -> None:
        try:
            self.batch.publish(store, self.checkpoints, self.markers)
        except BaseException as exc:  # re-raised in the ingest thread by ``settle``
            self.failure = exc


class Publisher:
    """Writes batches to ``store`` in the background, one at a time."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._job: _Job | None = None
        self._thread: threading.Thread | None = None

    def start(self, batch: Batch, checkpoints: list[Checkpoint], markers: list[Checkpoint]) -> None:
        """Begin writing ``batch`` (in-flight ``markers`` first, ``checkpoints`` last); the previous one is settled."""
        if self._job is not None:
            raise RuntimeError("the previous batch is not settled")
        job = _Job(batch, checkpoints, markers)
        self._job = job
        self._thread = threading.Thread(
            target=job.run, args=(self.store,), name="moraine-publish", daemon=True
        )
        self._thread.start()

    def settle(self) -> bool:
        """Wait for the batch being written; return whether there was one; raise its failure if it failed."""
        job, thread = self._job, self._thread
        self._job = self._thread = None
        if job is None:
            return False
        if thread is not None:
            thread.join()
        if job.failure is not None:
            raise job.failure
        return True
