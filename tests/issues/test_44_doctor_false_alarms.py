"""Issue 44, item 5: ``moraine doctor`` warns only about what is wrong, and shows what is here.

A throwaway HOME holds what a real machine does: Goose's ``sessions.db`` alone in its sessions folder (the JSONL
source shares that folder), Copilot CLI's ``<id>/events.jsonl`` layout alone (the flat ``<id>.jsonl`` source shares
its folder), a Cline task with both ``ui_messages.json`` and ``api_conversation_history.json`` under VS Code's
``globalStorage`` (where VS Code Copilot's empty-window chats would also be), and one Kimi CLI log in a format never
seen, the only real problem. Sessions were read from every folder but Kimi's: only Kimi's is named.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from fixtures.cli_run import run_cli
from moraine.store.client import Store
from tests.harnesses.home import HARNESS_TESTS, build_database

GOOSE = HARNESS_TESTS / "goose" / "home" / ".local" / "share" / "goose" / "sessions"
COPILOT = HARNESS_TESTS / "copilot_cli" / "home" / ".copilot" / "session-state"
COPILOT_SESSION = "5f0c9e2a-71b4-4d1e-8a3c-2b6d7e9f1a04"
CLINE = HARNESS_TESTS / "cline" / "home" / ".config" / "Code" / "User" / "globalStorage"
HERE = {"goose-sqlite", "copilot-cli", "cline", "cline-api", "kimi-cli"}  # the sources whose files are here


@pytest.fixture
def config(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    sessions = home / ".local" / "share" / "goose" / "sessions"
    sessions.mkdir(parents=True)
    build_database(GOOSE / "sessions.db.sql", sessions / "sessions.db")
    shutil.copytree(COPILOT / COPILOT_SESSION, home / ".copilot" / "session-state" / COPILOT_SESSION)
    shutil.copytree(CLINE, home / ".config" / "Code" / "User" / "globalStorage")
    wire = home / ".kimi" / "sessions" / "b9eb396a25017383e41d3226c2bc96d5" / "e4d3c2b1-0000" / "wire.jsonl"
    wire.parent.mkdir(parents=True)
    wire.write_text("kimi wrote this in a format we never saw\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MORAINE_HOME", str(home / ".moraine"))
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    path = tmp_path / "config.toml"
    path.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')
    run_cli("--config", str(path), "ingest")
    return path


def test_doctor_names_only_the_folder_from_which_nothing_was_read(config: Path) -> None:
    out = run_cli("--config", str(config), "doctor")
    silent = [line for line in out.splitlines() if line.startswith("[WARN] agent ")]
    assert len(silent) == 1, out
    assert silent[0].startswith("[WARN] agent Kimi CLI (kimi-cli): ~/.kimi/sessions exists but no session"), (
        out
    )


def test_doctor_lists_the_sources_present_and_counts_the_absent_in_one_line(config: Path) -> None:
    out = run_cli("--config", str(config), "doctor")
    listed = re.findall(r"^\[ok  \] source (\S+): \d+ file\(s\) match ", out, re.MULTILINE)
    assert set(listed) == HERE, out
    assert not re.search(r"^\[....\] source \S+: absent", out, re.MULTILINE), out
    every = run_cli("--config", str(config), "doctor", "--all")
    absent = re.findall(r"^\[ok  \] source (\S+): absent \(nothing matches ", every, re.MULTILINE)
    assert len(absent) > 80 and not HERE & set(absent)
    assert f"[ok  ] absent: {len(absent)} source(s): nothing matches their globs (--all lists them)" in out
    disabled = re.findall(r"^\[ok  \] source (\S+): disabled$", every, re.MULTILINE)
    assert disabled and f"[ok  ] disabled: {', '.join(disabled)} (opt-in:" in out
    assert len(out.splitlines()) < 20, out  # the warnings are not buried


def test_a_folder_read_by_another_source_below_it_still_names_a_source_whose_files_yield_nothing(
    config: Path,
) -> None:
    chats = Path.home() / ".config" / "Code" / "User" / "globalStorage" / "emptyWindowChatSessions"
    chats.mkdir()
    (chats / "0d5e8f3a-6b21-4c7e-9a04-3f1b2c8d7e65.json").write_text("{ truncated by a crash\n")
    run_cli("--config", str(config), "ingest")
    out = run_cli("--config", str(config), "doctor")
    silent = [line for line in out.splitlines() if line.startswith("[WARN] agent ")]
    assert [line.split(":")[0] for line in silent] == [
        "[WARN] agent Kimi CLI (kimi-cli)",
        "[WARN] agent VS Code Copilot (vscode-copilot-global)",
    ], out
    assert "1 file(s) match ~/.config/Code/User/globalStorage/*ChatSessions/*.json*" in silent[1]
