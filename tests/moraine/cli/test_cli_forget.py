# ruff: noqa: F811 (the tests take the `config` fixture imported from test_ingest as a parameter)
"""``moraine forget`` without a daemon: it shows what it selected, asks before forgetting more than one session,
is refused while ``moraine ingest`` writes to the store, and ``moraine status`` counts what it holds back."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fixtures.cli_run import run_cli
from tests.moraine.cli.test_ingest import config  # noqa: F401  (the shared fixture)
from tests.moraine.store.quick_cleanup import keep_replaced_parts_briefly

from moraine.cli import main
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.writer_lock import StoreWriterLock
from moraine.store.client import Store


def _sessions(store: Store, source: str) -> int:
    return int(
        store.query(
            f"SELECT count() FROM {store.table('sessions')} FINAL WHERE source = {{s:String}}", {"s": source}
        )[0][0]
    )


def test_forget_asks_before_several_sessions_and_forgets_one_trace_file_without_asking(
    store: Store,
    config: Path,
    tmp_path: Path,
) -> None:
    keep_replaced_parts_briefly(store)  # the forget waits on ClickHouse's cleanup: 1 s instead of 10
    run_cli("--config", str(config), "ingest", "--source", "codex", "--source", "claude")
    codex = _sessions(store, "codex")
    assert codex > 1
    declined = CliRunner().invoke(
        main, ["--config", str(config), "forget", "--harness", "codex"], input="n\n"
    )
    assert declined.exit_code == 1 and f"Forget these {codex} sessions for good?" in declined.output
    assert _sessions(store, "codex") == codex  # nothing happened

    trace = next(p for p in sorted((tmp_path / "codex").rglob("*.jsonl")) if p.stat().st_size > 0)
    forgotten = run_cli("--config", str(config), "forget", "--path", str(trace))
    assert "forgot 1 session(s)" in forgotten and str(trace) in forgotten and "Forget these" not in forgotten
    assert _sessions(store, "codex") == codex - 1
    again = run_cli(
        "--config", str(config), "ingest", "--source", "codex"
    )  # the file is read again: still forgotten
    assert "events 0" in again and _sessions(store, "codex") == codex - 1
    status = run_cli("--config", str(config), "status")
    assert "forgotten: 1 session(s) held back from ingest" in status


def test_forget_is_refused_while_ingest_writes_to_the_store(store: Store, config: Path) -> None:
    home = Path(str(config.parent / "home"))
    writer = StoreWriterLock(DaemonPaths(home).run_dir, store.dsn, store.database)
    writer.acquire("ingest")
    try:
        refused = CliRunner().invoke(main, ["--config", str(config), "forget", "--harness", "codex", "--yes"])
    finally:
        writer.release()
    assert refused.exit_code == 1
    assert "`moraine ingest` (pid" in refused.output and "is writing to the store" in refused.output


def test_forget_needs_something_to_select(config: Path) -> None:
    nothing = CliRunner().invoke(main, ["--config", str(config), "forget"])
    assert nothing.exit_code == 2 and "name the sessions to forget" in nothing.output
    bad = CliRunner().invoke(main, ["--config", str(config), "forget", "session:ses_!!"])
    assert bad.exit_code == 1 and "is not a session, turn or event ID" in bad.output
