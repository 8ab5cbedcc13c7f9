"""Watch mode picks up lines appended to a live file and publishes them within about a second."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

from moraine.config import SourceConfig
from moraine.ingest.pipeline import Ingestor, IngestSummary
from moraine.ingest.watch import watch
from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import conversation, write_lines
from tests.moraine.ingest.toy_adapter import ToyAdapter


def test_watch_publishes_appended_lines_within_a_second(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "live" / "a.jsonl"
    trace.parent.mkdir()
    records = conversation(turns=2)
    write_lines(trace, records[:4])
    source = SourceConfig("codex", "codex", f"{tmp_path}/**/*.jsonl", str(tmp_path))
    stop = threading.Event()
    passes: queue.Queue[IngestSummary] = queue.Queue()
    ingestor = Ingestor(store, stop=stop, adapters={"codex": ToyAdapter()})
    thread = threading.Thread(target=watch, args=(ingestor, [source], 3600.0, passes.put), daemon=True)
    thread.start()
    try:
        assert passes.get(timeout=30).events == 3
        started = time.monotonic()
        write_lines(trace, records[4:], mode="a")
        appended = 0
        while appended < 3:  # a write may be seen in more than one pass
            appended += passes.get(timeout=10).events
        elapsed = time.monotonic() - started
        assert appended == 3
        assert store.query(f"SELECT count(), max(seq) FROM {store.table('events')}") == [(6, 6)]
        assert elapsed < 5  # generous for a loaded CI machine; typically ~0.1 s
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()
