"""``moraine setup``: each client's configuration in its own documented format and place; writes merge safely."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from fixtures.setup_cli import run_setup as _setup
from moraine.daemon.mcp_clients import HttpTarget, SetupError, client_configs, client_names, write_config

COMMAND = "/opt/moraine/bin/moraine"
SECRET = "s" * 43
URL = "http://127.0.0.1:8765/mcp"
BEARER = {"Authorization": "Bearer " + SECRET}
STDIO = {"command": COMMAND, "args": ["mcp"]}
_GOOSE = {"enabled": True, "name": "moraine", "timeout": 300, "bundled": None}
_VSCODE_STORAGE = ".config/Code/User/globalStorage"


@dataclass(frozen=True)
class Documented:
    """A client's documented user-scope file (relative to home), its format, and our entry in each transport."""

    path: str
    format: str
    servers_key: str
    stdio: dict[str, Any]
    http: (
        dict[str, Any] | None
    )  # None: the client cannot send our header, so --http still launches moraine mcp


DOCUMENTED = {
    "claude-code": Documented(
        ".claude.json", "json", "mcpServers", STDIO, {"type": "http", "url": URL, "headers": BEARER}
    ),
    "claude-desktop": Documented(
        ".config/Claude/claude_desktop_config.json", "json", "mcpServers", STDIO, None
    ),
    "cline": Documented(
        f"{_VSCODE_STORAGE}/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        "json",
        "mcpServers",
        {**STDIO, "disabled": False},
        {"type": "streamableHttp", "url": URL, "headers": BEARER},
    ),
    "codex": Documented(
        ".codex/config.toml", "toml", "mcp_servers", STDIO, {"url": URL, "http_headers": BEARER}
    ),
    "copilot-cli": Documented(
        ".copilot/mcp-config.json",
        "json",
        "mcpServers",
        {"type": "local", **STDIO, "tools": ["*"]},
        {"type": "http", "url": URL, "headers": BEARER, "tools": ["*"]},
    ),
    "cursor": Documented(".cursor/mcp.json", "json", "mcpServers", STDIO, {"url": URL, "headers": BEARER}),
    "gemini-cli": Documented(
        ".gemini/settings.json", "json", "mcpServers", STDIO, {"httpUrl": URL, "headers": BEARER}
    ),
    "goose": Documented(
        ".config/goose/config.yaml",
        "yaml",
        "extensions",
        {**_GOOSE, "type": "stdio", "cmd": COMMAND, "args": ["mcp"], "envs": {}},
        {**_GOOSE, "type": "streamable_http", "uri": URL, "headers": BEARER, "envs": {}},
    ),
    "kimi-cli": Documented(".kimi/mcp.json", "json", "mcpServers", STDIO, {"url": URL, "headers": BEARER}),
    "opencode": Documented(
        ".config/opencode/opencode.json",
        "json",
        "mcp",
        {"type": "local", "command": [COMMAND, "mcp"], "enabled": True},
        {"type": "remote", "url": URL, "headers": BEARER, "enabled": True},
    ),
    "qwen-code": Documented(
        ".qwen/settings.json", "json", "mcpServers", STDIO, {"httpUrl": URL, "headers": BEARER}
    ),
    "roo-code": Documented(
        f"{_VSCODE_STORAGE}/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
        "json",
        "mcpServers",
        STDIO,
        {"type": "streamable-http", "url": URL, "headers": BEARER},
    ),
    "vscode": Documented(
        ".config/Code/User/mcp.json",
        "json",
        "servers",
        {"type": "stdio", **STDIO},
        {"type": "http", "url": URL, "headers": BEARER},
    ),
    "windsurf": Documented(
        ".codeium/windsurf/mcp_config.json",
        "json",
        "mcpServers",
        STDIO,
        {"serverUrl": URL, "headers": BEARER},
    ),
    "zed": Documented(
        ".config/zed/settings.json", "json", "context_servers", STDIO, {"url": URL, "headers": BEARER}
    ),
}


def _parse(text: str, kind: str) -> Any:
    if kind == "toml":
        return tomllib.loads(text)
    if kind == "yaml":
        return yaml.safe_load(text)
    return json.loads(text)


def _configs(home: Path, **kwargs: Any) -> dict[str, Any]:
    return {c.client: c for c in client_configs(home=home, command=COMMAND, platform="linux", **kwargs)}


@pytest.fixture(autouse=True)
def _no_moraine_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MORAINE_HOME", raising=False)
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)


def test_every_registered_client_has_a_documented_row() -> None:
    assert set(client_names()) == set(DOCUMENTED)


@pytest.mark.parametrize("client", sorted(DOCUMENTED))
def test_each_client_gets_its_documented_file_and_entry(tmp_path: Path, client: str) -> None:
    documented = DOCUMENTED[client]
    stdio = _configs(tmp_path)[client]
    assert stdio.path == tmp_path / documented.path
    assert _parse(stdio.text, documented.format) == {documented.servers_key: {"moraine": documented.stdio}}
    over_http = _configs(tmp_path, http=HttpTarget(URL, SECRET))[client]
    expected = documented.http or documented.stdio
    assert _parse(over_http.text, documented.format) == {documented.servers_key: {"moraine": expected}}
    assert over_http.private is (documented.http is not None)
    write_config(over_http)  # a fresh file of the client's format, user-only when it holds the secret
    assert (
        _parse(over_http.path.read_text(), documented.format)[documented.servers_key]["moraine"] == expected
    )


def test_macos_and_windows_paths_follow_each_clients_documentation(tmp_path: Path) -> None:
    mac = {c.client: c.path for c in client_configs(home=tmp_path, command=COMMAND, platform="darwin")}
    support = tmp_path / "Library" / "Application Support"
    assert mac["claude-desktop"] == support / "Claude" / "claude_desktop_config.json"
    assert mac["vscode"] == support / "Code" / "User" / "mcp.json"
    assert mac["zed"] == tmp_path / ".config" / "zed" / "settings.json"


def test_moraine_home_is_passed_to_the_launched_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MORAINE_HOME", "/data/moraine home")
    configs = _configs(tmp_path)
    env = {"MORAINE_HOME": "/data/moraine home"}
    assert json.loads(configs["cursor"].text)["mcpServers"]["moraine"]["env"] == env
    assert tomllib.loads(configs["codex"].text)["mcp_servers"]["moraine"]["env"] == env
    assert yaml.safe_load(configs["goose"].text)["extensions"]["moraine"]["envs"] == env
    assert json.loads(configs["opencode"].text)["mcp"]["moraine"]["environment"] == env


def test_writing_json_keeps_other_servers_and_backs_up_the_old_file(tmp_path: Path) -> None:
    cursor = _configs(tmp_path)["cursor"]
    cursor.path.parent.mkdir(parents=True)
    old = {
        "mcpServers": {"other": {"command": "other-server"}, "moraine": {"command": "stale"}},
        "theme": "dark",
    }
    cursor.path.write_text(json.dumps(old))
    backup = write_config(cursor)
    merged = json.loads(cursor.path.read_text())
    assert merged["mcpServers"]["other"] == {"command": "other-server"}
    assert merged["mcpServers"]["moraine"] == STDIO
    assert merged["theme"] == "dark"
    assert backup is not None and json.loads(backup.read_text()) == old


def test_writing_yaml_keeps_goose_s_other_extensions_and_settings(tmp_path: Path) -> None:
    goose = _configs(tmp_path)["goose"]
    goose.path.parent.mkdir(parents=True)
    goose.path.write_text(
        "GOOSE_PROVIDER: anthropic\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n"
        "    name: developer\n"
    )
    write_config(goose)
    merged = yaml.safe_load(goose.path.read_text())
    assert merged["GOOSE_PROVIDER"] == "anthropic"
    assert merged["extensions"]["developer"] == {"enabled": True, "type": "builtin", "name": "developer"}
    assert merged["extensions"]["moraine"] == DOCUMENTED["goose"].stdio
    assert write_config(goose) is None  # idempotent: nothing changed, nothing backed up


def test_writing_toml_replaces_only_our_table(tmp_path: Path) -> None:
    codex = _configs(tmp_path)["codex"]
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
    assert parsed["mcp_servers"]["moraine"] == STDIO
    assert parsed["profiles"] == {"fast": {"model": "o4-mini"}}
    write_config(codex)  # idempotent: a second write changes nothing
    assert tomllib.loads(codex.path.read_text()) == parsed


@pytest.mark.parametrize(
    ("client", "broken"), [("cursor", "{not valid"), ("codex", "x = ["), ("goose", "a: [b")]
)
def test_an_unparsable_existing_file_is_left_untouched(tmp_path: Path, client: str, broken: str) -> None:
    config = _configs(tmp_path)[client]
    config.path.parent.mkdir(parents=True)
    config.path.write_text(broken)
    with pytest.raises(SetupError, match="not valid"):
        write_config(config)
    assert config.path.read_text() == broken


def test_a_file_whose_servers_key_is_not_an_object_is_left_untouched(tmp_path: Path) -> None:
    zed = _configs(tmp_path)["zed"]
    zed.path.parent.mkdir(parents=True)
    zed.path.write_text('{"context_servers": []}')
    with pytest.raises(SetupError, match="context_servers"):
        write_config(zed)
    assert zed.path.read_text() == '{"context_servers": []}'


def test_setup_inside_a_repository_writes_only_user_files_by_default(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (home / ".claude").mkdir(parents=True)
    (home / ".cursor").mkdir()
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    result = _setup(home, repo, "--write")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in repo.iterdir()) == [".git"]  # nothing written into the repository
    assert json.loads((home / ".claude.json").read_text())["mcpServers"]["moraine"]["args"] == ["mcp"]
    assert json.loads((home / ".cursor" / "mcp.json").read_text())["mcpServers"]["moraine"]["args"] == ["mcp"]
    assert not (home / ".codex").exists()  # a client not found here is named, not configured
    assert "not found on this machine" in result.output and "codex" in result.output


def test_setup_project_writes_the_project_files_when_asked(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (home / ".claude").mkdir(parents=True)
    repo.mkdir()
    result = _setup(home, repo, "--write", "--project", "--client", "claude-code")
    assert result.exit_code == 0, result.output
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"]["moraine"]["args"] == ["mcp"]
    assert not (home / ".claude.json").exists()


def test_setup_with_no_client_found_says_how_to_name_one(tmp_path: Path) -> None:
    result = _setup(tmp_path, tmp_path)
    assert result.exit_code != 0
    assert "no MCP client found" in result.output and "--client" in result.output and "goose" in result.output


def test_a_written_http_configuration_is_user_only_even_over_a_readable_file(tmp_path: Path) -> None:
    claude = _configs(tmp_path, http=HttpTarget(URL, SECRET))["claude-code"]
    claude.path.write_text(json.dumps({"numStartups": 3, "mcpServers": {"other": {"command": "x"}}}))
    os.chmod(claude.path, 0o644)
    backup = write_config(claude)
    merged = json.loads(claude.path.read_text())
    assert merged["numStartups"] == 3 and merged["mcpServers"]["other"] == {"command": "x"}
    assert merged["mcpServers"]["moraine"]["headers"] == BEARER
    assert stat.S_IMODE(claude.path.stat().st_mode) == 0o600
    assert backup is not None and stat.S_IMODE(backup.stat().st_mode) == 0o600


def test_setup_http_needs_a_fixed_port_then_writes_the_secret_without_printing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "moraine"
    monkeypatch.setenv("MORAINE_HOME", str(home))
    refused = _setup(tmp_path, tmp_path, "--http", "--client", "codex")
    assert refused.exit_code != 0 and "fixed port" in refused.output
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text("[daemon]\nport = 8765\n")
    done = _setup(tmp_path, tmp_path, "--http", "--client", "codex", "--client", "gemini-cli", "--write")
    assert done.exit_code == 0, done.output
    secret = (home / "run" / "http-secret").read_text().strip()
    assert secret not in done.output and "********" in done.output
    written = tomllib.loads((tmp_path / ".codex" / "config.toml").read_text())
    assert written["mcp_servers"]["moraine"] == {
        "url": "http://127.0.0.1:8765/mcp",
        "http_headers": {"Authorization": f"Bearer {secret}"},
    }
    assert stat.S_IMODE((tmp_path / ".codex" / "config.toml").stat().st_mode) == 0o600
    gemini = json.loads((tmp_path / ".gemini" / "settings.json").read_text())["mcpServers"]["moraine"]
    assert gemini["headers"] == {"Authorization": f"Bearer {secret}"}
