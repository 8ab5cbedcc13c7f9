# ruff: noqa: F811 (the tests take the `config` fixture imported from test_ingest as a parameter)
"""A one-shot command that reads the store while ``moraine ingest`` writes to it names the writer and what to do
(an embedded store opens in one process at a time), instead of chDB's lock error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.moraine.cli.test_ingest import config  # noqa: F401  (the shared fixture)

from moraine.cli import main
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.writer_lock import StoreWriterLock
from moraine.store.client import Store


@pytest.mark.parametrize("command", [["status"], ["search", "parser"], ["sessions"]])
def test_a_read_while_ingest_writes_names_the_writer(store: Store, config: Path, command: list[str]) -> None:
    home = Path(str(config.parent / "home"))
    writer = StoreWriterLock(DaemonPaths(home).run_dir, store.dsn, store.database)
    writer.acquire("ingest")
    try:
        result = CliRunner().invoke(main, ["--config", str(config), *command])
    finally:
        writer.release()
    if store.dsn.startswith("chdb://"):
        assert result.exit_code == 1, result.output
        assert f"`moraine ingest` (pid {os.getpid()}) is writing to the store" in result.output
        assert f"kill {os.getpid()}" in result.output and "Exception" not in result.output
    else:  # a ClickHouse server takes readers beside its writer
        assert result.exit_code == 0, result.output
    again = CliRunner().invoke(main, ["--config", str(config), *command])
    assert again.exit_code == 0, again.output  # the lock is free again: the command reads
