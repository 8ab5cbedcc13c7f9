"""Config loading: defaults for every harness, user overrides by source name, and errors that name the key."""

from __future__ import annotations

import os

from pathlib import Path

import pytest

from moraine.config import default_sources, harness_for_source, load_config
from moraine.errors import ConfigError
from moraine.harnesses import harnesses

STANDARD = {
    "claude", "codex", "cursor", "cursor-sqlite", "hermes", "kimi-cli", "kiro", "nac", "omp", "opencode", "pi",
    "prime-agent", "prime-agent-subagents", "qwen-code",
}  # fmt: skip


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MORAINE_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    return tmp_path / "home"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_without_a_file_every_standard_source_and_harness_is_configured(_home: Path) -> None:
    config = load_config()
    assert config.store_dsn == f"chdb://{_home / 'store'}"
    assert {s.name for s in config.sources} >= STANDARD
    assert {s.harness for s in config.sources} == {h.name for h in harnesses().values() if h.locations}
    assert config.redact is True
    assert config.path is None


def test_claude_cowork_is_a_default_on_macos_only() -> None:
    assert "claude-cowork" in {s.name for s in default_sources("darwin")}
    assert "claude-cowork" not in {s.name for s in default_sources("linux")}
    assert harness_for_source("claude-cowork") == "claude-code"
    assert harness_for_source("omp") == "pi-coding-agent"


def test_user_entries_override_defaults_by_name_and_add_new_sources(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
redact = false
[store]
dsn = "http://localhost:8123"
database = "traces"
[ingest]
batch_size = 100
[[sources]]
name = "codex"
enabled = false
[[sources]]
name = "work-codex"
harness = "codex"
glob = "/data/codex/**/*.jsonl"
[server]
port = 1234
""",
    )
    config = load_config(path)
    codex = config.source("codex")
    assert (codex.enabled, codex.glob) == (False, "~/.codex/sessions/**/*.jsonl")
    extra = config.source("work-codex")
    assert (extra.harness, extra.watch_root, extra.format, extra.enabled) == (
        "codex",
        "/data/codex",
        "jsonl",
        True,
    )
    assert (config.store_dsn, config.database, config.batch_size, config.redact) == (
        "http://localhost:8123", "traces", 100, False,
    )  # fmt: skip
    assert config.extra == {"server": {"port": 1234}}


def test_ingest_workers_default_to_two_with_two_cores_and_take_the_configured_count(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")).workers == (2 if (os.cpu_count() or 1) >= 2 else 0)
    assert load_config(write(tmp_path, "[ingest]\nworkers = 0\n")).workers == 0
    assert load_config(write(tmp_path, "[ingest]\nworkers = 2\n")).workers == 2


def test_moraine_config_env_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "[store]\ndatabase = 'from_env'\n")
    monkeypatch.setenv("MORAINE_CONFIG", str(path))
    assert load_config().database == "from_env"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("redact = 'yes'", "redact must be true or false"),
        ("[store]\ndsn = 'mysql://x'", "store.dsn must start with chdb://"),
        ("[store]\ndatabase = 'bad-name'", "store.database must be a plain identifier"),
        ("[store]\nhost = 'x'", "store.host is not a known setting"),
        ("[ingest]\nbatch_size = 0", "ingest.batch_size must be an integer >= 1"),
        ("[ingest]\nworkers = -1", "ingest.workers must be an integer from 0 to 64 (got -1)"),
        ("[ingest]\nworkers = 65", "ingest.workers must be an integer from 0 to 64 (got 65)"),
        ("[ingest]\nworkers = '2'", "ingest.workers must be an integer from 0 to 64 (got '2')"),
        ("[ingest]\nworkers = true", "ingest.workers must be an integer from 0 to 64 (got True)"),
        ("[ingest]\nworkers = 1.5", "ingest.workers must be an integer from 0 to 64 (got 1.5)"),
        ("[[sources]]\nharness = 'codex'", "sources[0].name is required"),
        (
            "[[sources]]\nname = 'new'\nharness = 'codex'",
            "sources[0].glob is required for a new source 'new'",
        ),
        ("[[sources]]\nname = 'codex'\nharness = 'vim'", "sources[0].harness 'vim' is not one of"),
        ("[[sources]]\nname = 'codex'\nformat = 'xml'", "sources[0].format 'xml' is not one of"),
        ("[[sources]]\nname = 'codex'\nenabled = 1", "sources[0].enabled must be true or false"),
        ("[[sources]]\nname = 'codex'\ncolour = 'red'", "sources[0].colour is not a known setting"),
        ("sources = 3", "sources must be an array of tables"),
        ("store = 3", "store must be a table"),
        ("[store\n", "not valid TOML"),
    ],
)
def test_invalid_settings_raise_config_error_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert message in str(raised.value)
    assert str(path) in str(raised.value)


def test_an_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")


def test_unknown_source_name_lists_the_configured_ones() -> None:
    with pytest.raises(ConfigError, match="unknown source .nope.; configured sources: .*claude"):
        load_config().source("nope")
