"""Child process of the benchmark: one full ingest pass through the library, then a JSON line on stdout.

Run as ``python -m tools.bench.ingest_worker`` with MORAINE_HOME / MORAINE_CONFIG set (see tools.bench.home). It
is a separate process so that its peak RSS is the ingest's alone and the store's lock is released when it exits.
"""

from __future__ import annotations

import json
import sys
import time

from moraine.config import load_config
from moraine.ingest.pipeline import ingest_once
from moraine.store.client import Store


def main() -> int:
    config = load_config()
    started = time.perf_counter()
    store = Store.open(config.store_dsn, config.database)
    opened = time.perf_counter()
    summary = ingest_once(store, config, sources=[s.name for s in config.sources if s.enabled])
    done = time.perf_counter()
    events = store.query(f"SELECT count() FROM {store.table('events')}")[0][0]
    store.close()
    result = {
        "files": summary.files,
        "sessions": summary.sessions,
        "events": summary.events,
        "stored_events": int(events),
        "errors": summary.errors,
        "open_seconds": opened - started,
        "ingest_seconds": done - opened,
    }
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
