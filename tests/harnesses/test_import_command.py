"""``moraine import PATH``: ChatGPT and Claude.ai data exports into the store, idempotent, clear on bad input."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fixtures.handler_data import open_data
from tests.harnesses.home import HARNESS_TESTS, Expectation
from tests.harnesses.home import SECRET, harness_sessions
from moraine.cli import main
from moraine.store.client import Store
from tests.fixtures.requests import open_request

CHATGPT = HARNESS_TESTS / "chatgpt" / "export" / "conversations.json"
CLAUDE_AI = HARNESS_TESTS / "claude_ai" / "export" / "conversations.json"


@pytest.fixture
def config(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MORAINE_HOME", str(tmp_path / "home"))
    path = tmp_path / "config.toml"
    path.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')
    return path


def run(config: Path, target: Path) -> Result:
    return CliRunner().invoke(main, ["--config", str(config), "import", str(target)], catch_exceptions=False)


def counts(store: Store, harness: str) -> tuple[int, int]:
    """Return the (sessions, events) the store holds for ``harness``."""
    sessions = store.query(
        f"SELECT count() FROM {store.table('sessions')} FINAL WHERE harness = {{h:String}}", {"h": harness}
    )[0][0]
    events = store.query(
        f"SELECT count() FROM {store.table('events')} WHERE session_key IN "
        f"(SELECT session_key FROM {store.table('sessions')} FINAL WHERE harness = {{h:String}})",
        {"h": harness},
    )[0][0]
    return sessions, events


def test_a_chatgpt_export_zip_is_imported_once_and_a_second_import_adds_nothing(
    store: Store, config: Path, tmp_path: Path
) -> None:
    archive = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.write(CHATGPT, "conversations.json")
        packed.writestr("user.json", "{}")
    first = run(config, archive)
    assert first.exit_code == 0, first.output
    assert "importing a ChatGPT export: 1 conversations file(s)" in first.output
    expect = Expectation.load(HARNESS_TESTS / "chatgpt" / "expect.json")
    sessions, events = counts(store, "chatgpt")
    assert sessions == expect.sessions and events > 5
    assert f"events {events}" in first.output
    assert expect.title in {s["title"] for s in harness_sessions(store, "chatgpt")}
    second = run(config, archive)
    assert second.exit_code == 0 and "events 0" in second.output and "unchanged 1" in second.output
    assert counts(store, "chatgpt") == (sessions, events)


def test_a_claude_ai_conversations_file_is_imported_and_opens_as_its_harness(
    store: Store, config: Path
) -> None:
    result = run(config, CLAUDE_AI)
    assert result.exit_code == 0, result.output
    expect = Expectation.load(HARNESS_TESTS / "claude_ai" / "expect.json")
    rows = harness_sessions(store, "claude-ai")
    assert [(r["harness"], r["title"], r["completed"]) for r in rows] == [("claude-ai", expect.title, True)]
    opened = open_data(store, open_request(SECRET, id=str(rows[0]["id"]), limit=50), cursor_secret=SECRET)
    assert opened["session"]["source"] == "claude-ai" and len(opened["turns"]) == 2
    assert counts(store, "chatgpt") == (0, 0)


def test_a_newer_export_of_the_same_service_replaces_the_older_ones_conversations(
    store: Store, config: Path, tmp_path: Path
) -> None:
    assert run(config, CHATGPT).exit_code == 0
    newer = tmp_path / "newer"
    newer.mkdir()
    conversations = json.loads(CHATGPT.read_text())
    (newer / "conversations.json").write_text(json.dumps(conversations[1:]))
    result = run(config, newer)  # an unpacked export folder
    assert result.exit_code == 0, result.output
    assert [s["title"] for s in harness_sessions(store, "chatgpt")] == ["Oven temperature"]


@pytest.mark.parametrize(
    "content",
    ['[{"messages": []}]', '{"conversations": []}', "[]", "not json at all"],
    ids=["other-conversations", "an-object", "empty", "text"],
)
def test_a_file_that_is_neither_export_is_refused_with_a_clear_message(
    store: Store, config: Path, tmp_path: Path, content: str
) -> None:
    stray = tmp_path / "conversations.json"
    stray.write_text(content)
    result = CliRunner().invoke(main, ["--config", str(config), "import", str(stray)])
    assert result.exit_code != 0
    assert "neither a ChatGPT" in result.output or "holds no conversations" in result.output
    assert counts(store, "chatgpt") == (0, 0) and counts(store, "claude-ai") == (0, 0)


def test_a_folder_without_conversations_is_refused(config: Path, tmp_path: Path) -> None:
    empty = tmp_path / "export"
    empty.mkdir()
    shutil.copyfile(CHATGPT, empty / "chat.html")
    result = CliRunner().invoke(main, ["--config", str(config), "import", str(empty)])
    assert result.exit_code != 0 and "no conversations.json in" in result.output
