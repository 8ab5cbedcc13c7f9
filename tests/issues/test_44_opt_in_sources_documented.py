"""Issue 44, item 5: docs/harnesses.md says exactly how to turn on an opt-in source, and doing so reads it.

The page said Aider's source was "off until enabled, e.g. by `moraine setup`"; setup writes agents' MCP client
files and never touches a source. The page now shows the config entry that turns it on; this test copies that entry
from the page into a config, in a throwaway HOME holding an Aider chat history where the default glob looks
(``~/src/<repo>/.aider.chat.history.md``), and finds its sessions read.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from moraine.cli import main
from moraine.store.client import Store
from moraine.store.status import session_counts
from tests.harnesses.home import HARNESS_TESTS
from tools.harnesses.docs import DOCS

AIDER_HOME = HARNESS_TESTS / "aider" / "home"


def section(title: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(f"### {title}\n")
    end = text.find("\n### ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_the_aider_section_shows_the_config_entry_that_turns_it_on_and_not_setup() -> None:
    aider = section("Aider (`aider`)")
    assert "moraine setup" not in aider
    assert "~/.moraine/config.toml" in aider
    assert '[[sources]]\n    name = "aider"\n    enabled = true\n' in aider


def test_the_documented_entry_reads_an_aider_history(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    block = re.search(r"```toml\n(.*?)```", section("Aider (`aider`)"), re.DOTALL)
    assert block is not None, "no config entry in the Aider section"
    entry = "\n".join(line.strip() for line in block.group(1).splitlines())
    home = tmp_path / "home"
    shutil.copytree(AIDER_HOME, home)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MORAINE_HOME", str(home / ".moraine"))
    monkeypatch.delenv("MORAINE_CONFIG", raising=False)
    (home / ".moraine").mkdir()
    (home / ".moraine" / "config.toml").write_text(
        f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n\n{entry}\n'
    )
    result = CliRunner().invoke(main, ["ingest"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert session_counts(store) == {"aider": 2}
