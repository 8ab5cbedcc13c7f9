"""Roll back the interrupted publish of a trace file that has vanished since.

An in-flight checkpoint marker means a batch of the stream was being published when the process stopped. A file
that is still there is read again from its committed checkpoint, its unpublished rows deleted first (the pipeline
does that). A file that is gone is never read again, so its rollback happens when the checkpoints are loaded: the
rows at or after the committed offset are deleted, so are the turns and sessions the batch added, the sessions
and current turns it changed are written again as they were at the committed checkpoint (under newer versions),
and the checkpoint is written again without the marker. What was committed before stays, as for any deleted file.
"""

from __future__ import annotations

import logging
import os

from moraine.config import SourceConfig
from moraine.ingest.batch import Batch, SessionMeta
from moraine.ingest.checkpoints import Checkpoint
from moraine.ingest.sessions import SessionState
from moraine.store.client import Store
from moraine.store.recovery import delete_sessions_after, delete_stream_tail

__all__ = ["roll_back_vanished"]

logger = logging.getLogger(__name__)


def roll_back_vanished(store: Store, source: SourceConfig, checkpoints: dict[int, Checkpoint]) -> int:
    """Roll back every interrupted publish in ``checkpoints`` whose file is gone (updating them); return how many."""
    rolled = 0
    for stream_id, checkpoint in sorted(checkpoints.items()):
        if checkpoint.in_flight and not os.path.exists(checkpoint.path):
            checkpoints[stream_id] = _roll_back(store, source, checkpoint)
            rolled += 1
    return rolled


def _roll_back(store: Store, source: SourceConfig, marker: Checkpoint) -> Checkpoint:
    states = [SessionState.from_json(saved) for saved in marker.saved_sessions().values()]
    kept = [
        state for state in states if state.event_count > 0
    ]  # sessions with rows at the committed checkpoint
    delete_stream_tail(store, marker.stream_id, marker.offset, marker.source, marker.path)
    delete_sessions_after(store, marker.stream_id, {state.key: state.turn_seq for state in kept})
    committed = marker.committed()
    batch = Batch()
    meta = SessionMeta(source.name, source.harness, marker.stream_id, marker.path, marker.generation)
    for state in kept:
        batch.touch_session(state, meta)
    batch.publish(store, [committed], [])
    logger.warning(
        "rolled back the interrupted publish of %s (the file is gone): kept its rows before offset %d",
        marker.path,
        marker.offset,
    )
    return committed
