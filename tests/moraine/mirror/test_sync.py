"""Mirroring to a second store: a second chDB directory served by the test HTTP endpoint in another process.

Exactly the routed sessions arrive (a route glob, or the repository's ``.moraine.toml`` which wins), redacted even
when the local store is not; with the remote taken away mid-ingest, local ingest goes on, and once it is back every
routed event is present exactly once. A remote whose schema is newer than ours is refused with a clear error.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from moraine.config import Config
from moraine.ids import session_key
from moraine.store.versions import next_version
from moraine.ingest.pipeline import ingest_paths
from moraine.mirror.remote import our_schema_version
from moraine.mirror.settings import mirror_settings
from moraine.mirror.sync import mirror_once
from moraine.store.client import Store

ROOT = Path(__file__).resolve().parents[3]
SECRET = "sk-proj-" + "Q" * 8 + "mirrorsecret1234567890"


class Remote:
    """The remote endpoint process: start, stop (taken away) and start again on the same directory and port."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.moraine.mirror.remote_endpoint", str(self.path), str(self.port)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "ready"

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
            self.process = None

    def store(self, database: str) -> Store:
        return Store(self.url, database)


@pytest.fixture
def remote(tmp_path: Path) -> Iterator[Remote]:
    found = Remote(tmp_path / "remote-chdb")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def _codex(path: Path, uuid: str, cwd: str, turns: range) -> None:
    records = []
    if turns.start == 0:
        records.append({"timestamp": "2026-04-29T12:00:00.000Z", "type": "session_meta",
                        "payload": {"id": uuid, "timestamp": "2026-04-29T12:00:00.000Z", "cwd": cwd}})  # fmt: skip
    for n in turns:
        stamp = f"2026-04-29T12:{n // 60:02d}:{n % 60:02d}.500Z"
        records.append({"timestamp": stamp, "type": "event_msg",
                        "payload": {"type": "user_message", "message": f"step {n} key {SECRET} in {uuid}"}})  # fmt: skip
        records.append({"timestamp": stamp, "type": "event_msg",
                        "payload": {"type": "agent_message", "message": f"done {n}"}})  # fmt: skip
    with path.open("a") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in records)


def _uuid(name: str) -> str:
    return f"0196d000-0000-7000-8000-{name.encode().hex():0>12}"


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    work = tmp_path / "work"
    dirs = {"routed": work / "acme" / "svc", "repo": work / "acme" / "tools", "private": work / "home-lab"}
    for path in dirs.values():
        path.mkdir(parents=True)
    (dirs["repo"] / ".git").mkdir()
    (dirs["repo"] / ".moraine.toml").write_text('backend = "other"\n')
    return dirs


def _config(remote: Remote, work: Path, database: str) -> Config:
    extra = {
        "backends": {"team": {"url": remote.url, "database": database},
                     "other": {"url": remote.url, "database": database + "_other"}},
        "routes": [{"glob": f"{work}/acme/**", "backend": "team"}],
    }  # fmt: skip
    return Config(home=work, store_dsn="chdb://unused", extra=extra)


def _ingest(store: Store, traces: Path) -> None:
    ingest_paths(store, [traces], source="codex", harness="codex", redact=False)


def _remote_events(remote: Remote, database: str) -> dict[int, list[int]]:
    found = remote.store(database)
    try:
        rows = found.query(f"SELECT session_key, seq FROM {found.table('events')} ORDER BY session_key, seq")
    finally:
        found.close()
    out: dict[int, list[int]] = {}
    for key, seq in rows:
        out.setdefault(int(key), []).append(int(seq))
    return out


def _local_events(store: Store, key: int) -> list[int]:
    rows = store.query(
        f"SELECT seq FROM {store.table('events')} WHERE session_key = {{k:UInt64}} ORDER BY seq", {"k": key}
    )
    return [int(r[0]) for r in rows]


def test_mirroring_delivers_exactly_the_routed_sessions_redacted(
    store: Store, remote: Remote, layout: dict[str, Path], tmp_path: Path
) -> None:
    traces = tmp_path / "traces"
    traces.mkdir()
    for name, cwd in layout.items():
        _codex(traces / f"{name}.jsonl", _uuid(name), str(cwd), range(0, 3))
    _ingest(store, traces)
    keys = {name: session_key("codex", _uuid(name)) for name in layout}
    local_text = store.query(f"SELECT count() FROM {store.table('events')} WHERE position(text, {{s:String}}) > 0",
                             {"s": SECRET})  # fmt: skip
    assert local_text[0][0] > 0  # the local store was not redacted: mirroring must redact on its own
    database = f"m_{store.database}"
    report = mirror_once(store, mirror_settings(_config(remote, tmp_path / "work", database)))
    assert report.backends["team"].error is None and report.backends["other"].error is None
    team, other = _remote_events(remote, database), _remote_events(remote, database + "_other")
    assert set(team) == {keys["routed"]}
    assert set(other) == {keys["repo"]}  # .moraine.toml wins over the route that also matches it
    assert team[keys["routed"]] == _local_events(store, keys["routed"])
    found = remote.store(database)
    try:
        for table, column in (("events", "text"), ("postings", "term"), ("turns", "user_input_text"),
                              ("sessions", "first_user_message")):  # fmt: skip
            leaked = found.query(
                f"SELECT count() FROM {found.table(table)} WHERE position(ifNull({column}, ''), {{s:String}}) > 0",
                {"s": "mirrorsecret"},
            )
            assert leaked[0][0] == 0, f"{table}.{column} holds the secret"
        redacted = found.query(
            f"SELECT count() FROM {found.table('events')} WHERE position(text, 'step 1 key') > 0"
        )
        assert redacted[0][0] == 1
    finally:
        found.close()


def test_a_remote_taken_away_mid_ingest_catches_up_with_every_routed_event_once(
    store: Store, remote: Remote, layout: dict[str, Path], tmp_path: Path
) -> None:
    traces = tmp_path / "traces"
    traces.mkdir()
    trace = traces / "routed.jsonl"
    key = session_key("codex", _uuid("routed"))
    settings = mirror_settings(_config(remote, tmp_path / "work", f"m_{store.database}"))
    _codex(trace, _uuid("routed"), str(layout["routed"]), range(0, 5))
    _ingest(store, trace.parent)
    assert mirror_once(store, settings).backends["team"].error is None
    remote.stop()  # taken away while the session keeps growing
    _codex(trace, _uuid("routed"), str(layout["routed"]), range(5, 10))
    _ingest(store, trace.parent)
    down = mirror_once(store, settings).backends["team"]
    assert down.error is not None and down.pending == 1
    _codex(trace, _uuid("routed"), str(layout["routed"]), range(10, 15))
    _ingest(store, trace.parent)  # local ingest is not blocked by the missing backend
    assert len(_local_events(store, key)) == 31  # the session header and two events per step
    remote.start()
    back = mirror_once(store, settings).backends["team"]
    assert back.error is None and back.sessions == 1
    assert _remote_events(remote, f"m_{store.database}")[key] == list(range(1, 32))
    assert mirror_once(store, settings).backends["team"].sessions == 0  # caught up: nothing left to copy


def test_a_remote_whose_schema_is_newer_is_refused_and_not_migrated(
    store: Store, remote: Remote, layout: dict[str, Path], tmp_path: Path
) -> None:
    database = f"n_{store.database}"
    found = remote.store(database)
    try:
        found.command(f"CREATE DATABASE IF NOT EXISTS {database}")
        found.command(
            f"CREATE TABLE {found.table('schema_migrations')} (version UInt32, name String) "
            "ENGINE = MergeTree ORDER BY version"
        )
        found.insert("schema_migrations", [[our_schema_version() + 1, "future"]], ["version", "name"])
    finally:
        found.close()
    traces = tmp_path / "traces"
    traces.mkdir()
    _codex(traces / "routed.jsonl", _uuid("routed"), str(layout["routed"]), range(0, 2))
    _ingest(store, traces)
    report = mirror_once(store, mirror_settings(_config(remote, tmp_path / "work", database)))
    error = report.backends["team"].error
    assert error is not None and "newer than this Moraine" in error
    found = remote.store(database)
    try:
        tables = found.query("SELECT name FROM system.tables WHERE database = {db:String}", {"db": database})
        assert [t[0] for t in tables] == ["schema_migrations"]
    finally:
        found.close()


def test_a_copy_interrupted_before_its_watermark_moved_is_redone_without_duplicates(
    store: Store, remote: Remote, layout: dict[str, Path], tmp_path: Path
) -> None:
    traces = tmp_path / "traces"
    traces.mkdir()
    key = session_key("codex", _uuid("routed"))
    database = f"m_{store.database}"
    settings = mirror_settings(_config(remote, tmp_path / "work", database))
    _codex(traces / "routed.jsonl", _uuid("routed"), str(layout["routed"]), range(0, 4))
    _ingest(store, traces)
    assert mirror_once(store, settings).backends["team"].sessions == 1
    marks = store.table("mirror_watermarks")
    # The remote holds rows past where the watermark says: as if the last copy died before moving it.
    store.insert("mirror_watermarks", [["team", key, 0, 3, next_version()]], ("backend", "session_key", "generation", "seq",
                                                                       "version"))  # fmt: skip
    assert store.query(f"SELECT seq FROM {marks} FINAL WHERE session_key = {{k:UInt64}}", {"k": key}) == [
        (3,)
    ]
    redo = mirror_once(store, settings).backends["team"]
    assert redo.error is None and redo.sessions == 1
    assert _remote_events(remote, database)[key] == _local_events(store, key)
    assert mirror_once(store, settings).backends["team"].sessions == 0  # the watermark moved past the redo
    found = remote.store(database)
    try:
        postings = found.query(
            f"SELECT count(), uniqExact(term, seq) FROM {found.table('postings')} WHERE session_key = {{k:UInt64}}",
            {"k": key},
        )
        assert postings[0][0] == postings[0][1] > 0
    finally:
        found.close()
