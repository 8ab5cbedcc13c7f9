"""An export read where it lies (``moraine import``): what an older export gave makes way for the newer one.

Every file an import names is a stream of the export's source. A stream of that source that is not one of them
(an older export elsewhere, a copy an earlier version kept under the Moraine home), or is one of them changed since
it was read, has its rows and checkpoints deleted first (``moraine.store.recovery.delete_stream``): the newer
export is read from its start, its conversations keep their session IDs, and none is held twice. A conversation
forgotten before stays forgotten (ingest drops what the ``forgotten`` table names).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from moraine.config import SourceConfig
from moraine.ingest.checkpoints import load_checkpoints
from moraine.ingest.identity import FileIdentity, stream_id
from moraine.store.client import Store
from moraine.store.recovery import delete_stream

__all__ = ["replace_older_exports"]


def replace_older_exports(store: Store, source: SourceConfig, files: Sequence[Path]) -> int:
    """Delete what every stream of ``source`` other than ``files`` as they are now gave; return how many streams."""
    current = {stream_id(source.name, path.absolute()): path for path in files}
    replaced = 0
    for checkpoint in load_checkpoints(store, source.name).values():
        path = current.get(checkpoint.stream_id)
        if path is not None:
            identity = FileIdentity.loads(checkpoint.file_identity)
            if identity is not None and identity.unchanged(path.stat()):
                continue  # read whole before and unchanged: the import reads nothing new
        delete_stream(store, checkpoint.stream_id, checkpoint.session_keys(), source.name, checkpoint.path)
        replaced += 1
    return replaced
