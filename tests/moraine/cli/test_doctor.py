"""Commands never print a credential: ``moraine doctor`` and ``moraine status`` on a store DSN with a password."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from moraine.cli import main

PASSWORD = "hunter2quokka"
DSN = f"http://moraine:{PASSWORD}@127.0.0.1:9/"  # nothing listens on port 9: the store never opens


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("MORAINE_HOME", str(home))
    logs = home / "logs"
    logs.mkdir(parents=True)
    (logs / "daemon.log").write_text(
        f"2026-12-03 10:00:00 ERROR moraine.daemon: store {DSN} failed (password={PASSWORD})\n"
    )
    path = tmp_path / "config.toml"
    path.write_text(
        f'[store]\ndsn = "{DSN}"\ndatabase = "masked"\n[[sources]]\nname = "none"\nharness = "codex"\nglob = "{tmp_path}/x/*"\n'
    )
    return path


def test_doctor_prints_the_store_dsn_and_the_log_without_the_password(config: Path) -> None:
    result = CliRunner().invoke(main, ["--config", str(config), "doctor"])
    printed = result.output
    assert result.exit_code == 1  # the store check fails: it prints the DSN it could not open
    assert "store: http://moraine:***@127.0.0.1:9/ does not open" in printed
    assert "recent problems in" in printed and "password=***" in printed  # the log tail, masked
    assert PASSWORD not in printed


def test_status_reports_a_store_that_does_not_open_without_the_password(config: Path) -> None:
    result = CliRunner().invoke(main, ["--config", str(config), "status"])
    assert result.exit_code == 1 and "Error:" in result.output
    assert PASSWORD not in result.output
