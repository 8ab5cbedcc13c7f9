"""The background mirroring beside ingest: a kick never waits, a backend that is down is reported, not raised."""

from __future__ import annotations

import socket
from pathlib import Path

from moraine.config import Config
from moraine.mirror.worker import MirrorWorker
from moraine.store.client import Store


def test_a_kick_with_the_backend_down_reports_the_delay_and_leaves_the_local_store_alone(
    store: Store, ingest_into_store: object, tmp_path: Path
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens here once the probe closes
    trace = tmp_path / "t.jsonl"
    trace.write_text(
        '{"timestamp":"2026-04-29T12:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"%s"}}\n'
        '{"timestamp":"2026-04-29T12:00:01.000Z","type":"event_msg","payload":{"type":"user_message",'
        '"message":"hello"}}\n' % tmp_path
    )
    ingest_into_store([trace], source="codex")  # type: ignore[operator]
    config = Config(
        home=tmp_path,
        store_dsn="chdb://unused",
        extra={
            "backends": {"team": {"url": f"http://127.0.0.1:{port}"}},
            "routes": [{"glob": f"{tmp_path}", "backend": "team"}],
        },
    )
    worker = MirrorWorker.from_config(store, config)
    assert worker is not None
    worker.kick()
    worker.join(60)
    assert worker.last is not None
    report = worker.last.backends["team"]
    assert report.error is not None and report.pending == 1 and report.sessions == 0
    assert store.query(f"SELECT count() FROM {store.table('events')}")[0][0] == 2


def test_no_backends_means_no_worker(store: Store, tmp_path: Path) -> None:
    assert MirrorWorker.from_config(store, Config(home=tmp_path, store_dsn="chdb://unused")) is None
