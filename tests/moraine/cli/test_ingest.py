"""``moraine ingest`` and ``moraine status`` on the project's own Codex and Claude Code fixtures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fixtures.cli_run import run_cli
from click.testing import CliRunner

from moraine.cli import main
from moraine.store.client import Store

FIXTURES = Path(__file__).resolve().parents[2] / "harnesses"


@pytest.fixture
def config(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURES / "codex" / "home" / ".codex" / "sessions", tmp_path / "codex")
    shutil.copytree(FIXTURES / "claude_code" / "home" / ".claude" / "projects", tmp_path / "claude")
    monkeypatch.setenv("MORAINE_HOME", str(tmp_path / "home"))
    path = tmp_path / "config.toml"
    path.write_text(
        f"""
[store]
dsn = "{store.dsn}"
database = "{store.database}"
[[sources]]
name = "codex"
glob = "{tmp_path}/codex/**/*.jsonl"
[[sources]]
name = "claude"
glob = "{tmp_path}/claude/**/*.jsonl"
"""
    )
    return path


def test_ingest_indexes_the_sources_and_a_second_run_adds_nothing(store: Store, config: Path) -> None:
    first = run_cli("--config", str(config), "ingest", "--source", "codex", "--source", "claude")
    events = store.query(f"SELECT count() FROM {store.table('events')}")[0][0]
    sessions = store.query(
        f"SELECT source, count() FROM {store.table('sessions')} FINAL GROUP BY source ORDER BY source"
    )
    assert events > 20
    assert [name for name, _ in sessions] == ["claude", "codex"]
    assert f"events {events}" in first
    errors = store.query(f"SELECT count() FROM {store.table('ingest_errors')}")[0][0]
    assert f"errors {errors}" in first  # the fixtures plant malformed records; each is one error row
    second = run_cli("--config", str(config), "ingest", "--source", "codex", "--source", "claude")
    assert "events 0" in second
    assert store.query(f"SELECT count() FROM {store.table('events')}")[0][0] == events


def test_ingest_of_explicit_paths_assigns_them_to_the_source_whose_glob_matches(
    store: Store, config: Path, tmp_path: Path
) -> None:
    trace = next((tmp_path / "codex").rglob("*.jsonl"))
    out = run_cli("--config", str(config), "ingest", str(trace))
    assert "files 1 " in out
    assert store.query(f"SELECT DISTINCT source FROM {store.table('sessions')} FINAL") == [("codex",)]


def test_ingest_of_a_path_outside_every_source_asks_for_source(config: Path, tmp_path: Path) -> None:
    stray = tmp_path / "stray.jsonl"
    stray.write_text("{}\n")
    result = CliRunner().invoke(main, ["--config", str(config), "ingest", str(stray)])
    assert result.exit_code != 0
    assert "matches no configured source's glob; pass --source NAME" in result.output


def test_a_bad_config_is_reported_with_its_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[ingest]\nbatch_size = -1\n")
    result = CliRunner().invoke(main, ["--config", str(bad), "ingest"])
    assert result.exit_code != 0
    assert "ingest.batch_size must be an integer >= 1" in result.output


def test_status_prints_counts_coverage_and_recent_errors(store: Store, config: Path, tmp_path: Path) -> None:
    (tmp_path / "codex" / "broken.jsonl").write_text("not json\n")
    run_cli("--config", str(config), "ingest", "--source", "codex")
    out = run_cli("--config", str(config), "status")
    events = store.query(f"SELECT count() FROM {store.table('events')}")[0][0]
    assert f"events {events}" in out
    codex_row = next(line for line in out.splitlines() if line.strip("│ ").startswith("codex "))
    assert "4" in codex_row  # 3 fixture files + the broken one found and indexed
    assert "recent ingest errors:" in out
    assert "broken.jsonl:1 invalid_json" in out
