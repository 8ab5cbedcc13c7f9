"""``moraine setup``: each client's configuration parses in its format with the expected entry; writes merge safely."""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from moraine.cli import main
from moraine.daemon.mcp_clients import HttpTarget, SetupError, client_configs, write_config

COMMAND = "/opt/moraine/bin/moraine"


def test_printed_configurations_parse_as_each_clients_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MORAINE_HOME", raising=False)
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    configs = {
        c.client: c for c in client_configs(home=tmp_path, project_dir=tmp_path / "p", command=COMMAND)
    }
    assert set(configs) == {"claude-code", "codex", "cursor"}
    for name in ("claude-code", "cursor"):
        parsed = json.loads(configs[name].text)
        assert parsed == {"mcpServers": {"moraine": {"command": COMMAND, "args": ["mcp"]}}}
    codex = tomllib.loads(configs["codex"].text)
    assert codex == {"mcp_servers": {"moraine": {"command": COMMAND, "args": ["mcp"]}}}
    assert configs["claude-code"].path == tmp_path / "p" / ".mcp.json"
    assert configs["codex"].path == tmp_path / ".codex" / "config.toml"
    assert configs["cursor"].path == tmp_path / ".cursor" / "mcp.json"


def test_moraine_home_is_passed_to_the_launched_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MORAINE_HOME", "/data/moraine home")
    configs = {c.client: c for c in client_configs(home=tmp_path, project_dir=tmp_path, command=COMMAND)}
    assert json.loads(configs["cursor"].text)["mcpServers"]["moraine"]["env"] == {
        "MORAINE_HOME": "/data/moraine home"
    }
    assert tomllib.loads(configs["codex"].text)["mcp_servers"]["moraine"]["env"] == {
        "MORAINE_HOME": "/data/moraine home"
    }


def test_writing_json_keeps_other_servers_and_backs_up_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MORAINE_HOME", raising=False)
    cursor = next(
        c
        for c in client_configs(home=tmp_path, project_dir=tmp_path, command=COMMAND)
        if c.client == "cursor"
    )
    cursor.path.parent.mkdir(parents=True)
    old = {
        "mcpServers": {"other": {"command": "other-server"}, "moraine": {"command": "stale"}},
        "theme": "dark",
    }
    cursor.path.write_text(json.dumps(old))
    backup = write_config(cursor)
    merged = json.loads(cursor.path.read_text())
    assert merged["mcpServers"]["other"] == {"command": "other-server"}
    assert merged["mcpServers"]["moraine"] == {"command": COMMAND, "args": ["mcp"]}
    assert merged["theme"] == "dark"
    assert backup is not None and json.loads(backup.read_text()) == old


def test_writing_toml_replaces_only_our_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MORAINE_HOME", raising=False)
    codex = next(
        c for c in client_configs(home=tmp_path, project_dir=tmp_path, command=COMMAND) if c.client == "codex"
    )
    codex.path.parent.mkdir(parents=True)
    codex.path.write_text(
        'model = "gpt-5-codex"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--stdio"]\n\n'
        '[mcp_servers.moraine]\ncommand = "old"\nargs = []\n\n[mcp_servers.moraine.env]\nX = "1"\n\n'
        '[profiles.fast]\nmodel = "o4-mini"\n'
    )
    write_config(codex)
    parsed = tomllib.loads(codex.path.read_text())
    assert parsed["model"] == "gpt-5-codex"
    assert parsed["mcp_servers"]["docs"] == {"command": "docs-mcp", "args": ["--stdio"]}
    assert parsed["mcp_servers"]["moraine"] == {"command": COMMAND, "args": ["mcp"]}
    assert parsed["profiles"] == {"fast": {"model": "o4-mini"}}
    write_config(codex)  # idempotent: a second write changes nothing
    assert tomllib.loads(codex.path.read_text()) == parsed


@pytest.mark.parametrize("client", ["cursor", "codex"])
def test_an_unparsable_existing_file_is_left_untouched(tmp_path: Path, client: str) -> None:
    config = next(
        c for c in client_configs(home=tmp_path, project_dir=tmp_path, command=COMMAND) if c.client == client
    )
    config.path.parent.mkdir(parents=True)
    config.path.write_text("{not valid = [")
    with pytest.raises(SetupError, match="not valid"):
        write_config(config)
    assert config.path.read_text() == "{not valid = ["


def test_setup_write_creates_all_three_files_that_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("MORAINE_HOME", raising=False)
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    project = tmp_path / "project"
    result = CliRunner().invoke(main, ["setup", "--write", "--project-dir", str(project)])
    assert result.exit_code == 0, result.output
    for path in (project / ".mcp.json", tmp_path / ".cursor" / "mcp.json"):
        entry = json.loads(path.read_text())["mcpServers"]["moraine"]
        assert entry["args"] == ["mcp"] and Path(entry["command"]).name == "moraine"
    entry = tomllib.loads((tmp_path / ".codex" / "config.toml").read_text())["mcp_servers"]["moraine"]
    assert entry["args"] == ["mcp"] and Path(entry["command"]).name == "moraine"


def test_http_configurations_carry_the_secret_as_a_bearer_header_in_each_clients_format(
    tmp_path: Path,
) -> None:
    target = HttpTarget("http://127.0.0.1:8765/mcp", "s" * 43)
    configs = {c.client: c for c in client_configs(home=tmp_path, project_dir=tmp_path / "p", http=target)}
    bearer = {"Authorization": "Bearer " + "s" * 43}
    assert json.loads(configs["claude-code"].text) == {
        "mcpServers": {"moraine": {"type": "http", "url": target.url, "headers": bearer}}
    }
    assert configs["claude-code"].path == tmp_path / ".claude.json"  # user scope, never a project's file
    assert json.loads(configs["cursor"].text) == {
        "mcpServers": {"moraine": {"url": target.url, "headers": bearer}}
    }
    assert tomllib.loads(configs["codex"].text) == {
        "mcp_servers": {"moraine": {"url": target.url, "http_headers": bearer}}
    }
    assert all(c.private for c in configs.values())


def test_a_written_http_configuration_is_user_only_even_over_a_readable_file(tmp_path: Path) -> None:
    target = HttpTarget("http://127.0.0.1:8765/mcp", "s" * 43)
    claude = next(c for c in client_configs(home=tmp_path, http=target) if c.client == "claude-code")
    claude.path.write_text(json.dumps({"numStartups": 3, "mcpServers": {"other": {"command": "x"}}}))
    os.chmod(claude.path, 0o644)
    write_config(claude)
    merged = json.loads(claude.path.read_text())
    assert merged["numStartups"] == 3 and merged["mcpServers"]["other"] == {"command": "x"}
    assert merged["mcpServers"]["moraine"]["headers"]["Authorization"] == "Bearer " + "s" * 43
    assert stat.S_IMODE(claude.path.stat().st_mode) == 0o600


def test_setup_http_needs_a_fixed_port_and_then_writes_the_installs_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "moraine"
    monkeypatch.setenv("MORAINE_HOME", str(home))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    refused = CliRunner().invoke(main, ["setup", "--http", "--client", "codex"])
    assert refused.exit_code != 0 and "fixed port" in refused.output
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text("[daemon]\nport = 8765\n")
    done = CliRunner().invoke(main, ["setup", "--http", "--client", "codex", "--write"])
    assert done.exit_code == 0, done.output
    secret = (home / "run" / "http-secret").read_text().strip()
    written = tomllib.loads((tmp_path / ".codex" / "config.toml").read_text())
    assert written["mcp_servers"]["moraine"] == {
        "url": "http://127.0.0.1:8765/mcp",
        "http_headers": {"Authorization": f"Bearer {secret}"},
    }
    assert stat.S_IMODE((tmp_path / ".codex" / "config.toml").stat().st_mode) == 0o600
