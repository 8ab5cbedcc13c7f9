"""The standard sources of the VS Code family and its neighbours on each platform (their own folders' globs)."""

from __future__ import annotations

import pytest

from moraine.config import default_sources

CASES = [
    ("vscode-copilot", "linux", "~/.config/Code/User/workspaceStorage/*/chatSessions/*.json*"),
    (
        "vscode-copilot",
        "darwin",
        "~/Library/Application Support/Code - Insiders/User/globalStorage/*ChatSessions/",
    ),
    ("vscode-copilot", "win32", "~/AppData/Roaming/VSCodium/User/workspaceStorage/*/chatSessions/"),
    (
        "cline",
        "darwin",
        "~/Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks/",
    ),
    ("cline", "linux", "~/.cline/data/tasks/*/ui_messages.json"),
    ("roo-code", "win32", "~/AppData/Roaming/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/"),
    ("kilo", "linux", "~/.local/share/kilo/kilo.db"),
    ("kilo", "darwin", "~/Library/Application Support/Code/User/globalStorage/kilocode.kilo-code/tasks/"),
    ("windsurf", "darwin", "~/Library/Application Support/Windsurf/User/workspaceStorage/*/state.vscdb"),
    ("trae", "linux", "~/.config/Trae CN/User/globalStorage/state.vscdb"),
    ("trae-cli", "darwin", "~/.trae/cli/archived_sessions/*.jsonl"),
    ("visual-studio-copilot", "darwin", "~/Library/Caches/VSGitHubCopilotLogs/traces/"),
    ("visual-studio-copilot", "win32", "~/AppData/Local/Temp/VSGitHubCopilotLogs/traces/"),
    ("zencoder", "linux", "~/.zencoder/sessions/**/*.jsonl"),
]


@pytest.mark.parametrize(("harness", "platform", "expected"), CASES)
def test_each_platform_has_the_harness_in_its_own_folder(harness: str, platform: str, expected: str) -> None:
    globs = [s.glob for s in default_sources(platform) if s.harness == harness]
    assert any(glob.startswith(expected) for glob in globs), globs


def test_every_source_name_is_unique_and_enabled() -> None:
    ours = {"vscode-copilot", "cline", "roo-code", "kilo", "windsurf", "trae", "trae-cli"}
    sources = [
        s for s in default_sources("linux") if s.harness in ours | {"visual-studio-copilot", "zencoder"}
    ]
    assert len({s.name for s in sources}) == len(sources) >= 30
    assert all(s.enabled for s in sources)
