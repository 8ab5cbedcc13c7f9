"""Say what was found: ``moraine status`` lists the agents whose folders exist here with their session counts, and
``moraine doctor`` names a known agent's folder that exists but yields no session, with its ingest errors."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from fixtures.cli_run import run_cli
from moraine.config import load_config
from moraine.daemon.report import StoreReport, store_report
from moraine.store.client import Store

CODEX = Path(__file__).resolve().parents[2] / "harnesses" / "codex" / "home" / ".codex"


@pytest.fixture
def config(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with Codex's sessions, a Kimi CLI folder whose only log is unreadable, and no other agent."""
    home = tmp_path / "home"
    shutil.copytree(CODEX, home / ".codex")
    wire = home / ".kimi" / "sessions" / "b9eb396a25017383e41d3226c2bc96d5" / "e4d3c2b1-0000" / "wire.jsonl"
    wire.parent.mkdir(parents=True)
    wire.write_text("kimi wrote this in a format we never saw\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MORAINE_HOME", str(home / ".moraine"))
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    path = tmp_path / "config.toml"
    path.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')
    return path


def test_status_lists_the_agents_found_here_with_their_session_counts(config: Path) -> None:
    run_cli("--config", str(config), "ingest")
    out = run_cli("--config", str(config), "status")
    found = out[out.index("agents found on this machine") :].splitlines()
    assert found[0] == "agents found on this machine: 2"
    assert found[1].startswith("  Codex (codex): 3 sessions · ~/.codex/sessions")
    assert found[2].startswith("  Kimi CLI (kimi-cli): 0 sessions · ~/.kimi/sessions")


def test_status_says_when_no_known_agent_folder_exists(config: Path) -> None:
    shutil.rmtree(Path.home() / ".codex")
    shutil.rmtree(Path.home() / ".kimi")
    out = run_cli("--config", str(config), "status")
    assert "agents found on this machine: none" in out


def test_doctor_names_the_folder_that_yields_nothing_with_its_first_errors(config: Path) -> None:
    run_cli("--config", str(config), "ingest")
    out = run_cli("--config", str(config), "doctor")
    silent = [line for line in out.splitlines() if line.startswith("[WARN] agent ")]
    assert len(silent) == 1, out
    assert silent[0].startswith("[WARN] agent Kimi CLI (kimi-cli): ~/.kimi/sessions exists but no session")
    assert "1 file(s) match ~/.kimi/sessions/**/wire.jsonl, 1 ingested, 1 ingest error(s)" in silent[0]
    assert "wire.jsonl:1 invalid_json" in silent[0]
    assert "agent Codex" not in out


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder whatever its mode")
def test_doctor_says_permission_denied_for_a_folder_it_may_not_read(config: Path) -> None:
    sessions = Path.home() / ".kimi" / "sessions"
    sessions.chmod(0o000)
    try:
        out = run_cli("--config", str(config), "doctor")
    finally:
        sessions.chmod(0o700)
    silent = [line for line in out.splitlines() if line.startswith("[WARN] agent Kimi CLI")]
    assert len(silent) == 1 and f"permission denied on {sessions}" in silent[0], out


def test_the_daemon_status_report_carries_the_agents_found(store: Store, config: Path) -> None:
    run_cli("--config", str(config), "ingest")
    report = store_report(store, 5, load_config(config).sources)
    assert [(a.harness, a.sessions, a.sources) for a in report.agents] == [
        ("codex", 3, ("codex",)),
        ("kimi-cli", 0, ("kimi-cli",)),
    ]
    assert StoreReport.from_json(report.to_json()).agents == report.agents
