"""Issue 43, item 4: text that must not be on disk is not, in any file under the HOME (the store's included).

A changed Gemini CLI chat whose new title holds a token: redacted everywhere, the checkpoints too (the resumed
state was the saved one itself, written back unredacted as the in-flight marker). A forget while an ingest process
goes on (as the daemon's does): the forgotten session's title and first prompt never come back. Every file under
the test HOME is searched, byte for byte, the store's column files decompressed; only the agent's own trace folder
(``.gemini``, which Moraine never changes) is left out.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tests.issues.home_process import Home, new_home

TOKEN = "ghp_" + "Zq8wV3nR6tY1uB4mK7pL0sD2fG5hJ9xC3aE6"  # the shape of a GitHub token, unique to this test
TITLE = "plantedkestreltitle"
PROMPT = "plantedkestrelprompt"
CHAT = ".gemini/tmp/0123abcd/chats/session-2026-09-01T10-00-aa11.json"


def _chat(home: Home, summary: str, prompts: list[str]) -> Path:
    """Write the Gemini CLI chat document (one user message and one answer per prompt)."""
    messages = []
    for index, prompt in enumerate(prompts):
        stamp = f"2026-09-01T10:0{index}:0"
        messages += [
            {"id": f"u{index}", "timestamp": stamp + "1.000Z", "type": "user", "content": prompt},
            {"id": f"g{index}", "timestamp": stamp + "2.000Z", "type": "gemini", "content": "Done."},
        ]
    document = {
        "sessionId": "aa11aa11-0000-4000-8000-000000000043",
        "projectHash": "0123abcd",
        "startTime": "2026-09-01T10:00:00.000Z",
        "lastUpdated": "2026-09-01T10:09:00.000Z",
        "summary": summary,
        "messages": messages,
    }
    path = home.root / CHAT
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_changed_gemini_chat_with_a_token_in_its_title_leaves_it_in_no_file(tmp_path: Path) -> None:
    home = new_home(tmp_path)
    _chat(home, "Fix the report", ["Fix the rounding in report.py"])
    first = home.moraine_cli("ingest", "--source", "gemini-cli")
    assert first.code == 0, first.output
    _chat(home, f"Push with {TOKEN}", ["Fix the rounding in report.py", "Now push it"])
    second = home.moraine_cli("ingest", "--source", "gemini-cli")
    assert second.code == 0 and "events 2" in second.output, second.output
    assert home.holding(TOKEN, skip=(".gemini",)) == []
    assert home.holding(TOKEN[:12], skip=(".gemini",)) == []  # not a prefix of it either


# The daemon's ingest in one process: ingest, a forget (from another request), the agent writes on, ingest again.
_DAEMON_LIKE = """
import sys
from moraine.config import load_config
from moraine.ingest.forgetting import forget_sessions
from moraine.ingest.pipeline import Ingestor
from moraine.store.client import Store
from moraine.store.forget import ForgetCriteria, find_sessions
from tests.issues.test_43_nothing_left_on_disk import write_later_chat
from tests.moraine.store.quick_cleanup import keep_replaced_parts_briefly

config = load_config(None)
store = Store.open(config.store_dsn, config.database)
keep_replaced_parts_briefly(store)
sources = [config.source("gemini-cli")]
ingestor = Ingestor(store, batch_size=config.batch_size, redact=True)
assert ingestor.run(sources).sessions == 1
targets = find_sessions(store, ForgetCriteria(harness="gemini-cli"))
assert forget_sessions(store, targets).parts_left == 0
write_later_chat()
ingestor.run(sources)  # its rows are dropped before publishing (the forgotten table)
keep_replaced_parts_briefly(store)
store.close()
print("ok")
"""


def write_later_chat() -> None:
    """Rewrite the chat of the forget test with one more prompt (run inside the child: its HOME is the test's)."""
    _chat(Home(Path.home(), Path.home() / ".moraine"), TITLE, [PROMPT, "and one more thing"])


def test_a_forget_during_a_running_ingest_leaves_the_sessions_text_in_no_file(tmp_path: Path) -> None:
    home = new_home(tmp_path)
    _chat(home, TITLE, [PROMPT])
    ran = home.python(_DAEMON_LIKE)
    assert ran.code == 0 and "ok" in ran.output, ran.output
    for needle in (TITLE, PROMPT):
        assert home.holding(needle, skip=(".gemini",)) == [], needle


CHATGPT = Path(__file__).resolve().parents[1] / "harnesses" / "chatgpt" / "export" / "conversations.json"
SPOKEN = "plantedkestrelspoken"


def _export(home: Home) -> Path:
    """Write a ChatGPT export zip under ~/Downloads whose first conversation's prompt holds TOKEN and SPOKEN."""
    conversations = json.loads(CHATGPT.read_text(encoding="utf-8"))
    prompt = conversations[0]["mapping"]["n1"]["message"]["content"]
    prompt["parts"] = [f"{SPOKEN}: the deploy token is {TOKEN}"]
    archive = home.root / "Downloads" / "chatgpt-export.zip"
    archive.parent.mkdir(parents=True)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as packed:
        packed.writestr("conversations.json", json.dumps(conversations))
    return archive


_BRIEF_CLEANUP = """
from moraine.config import load_config
from moraine.store.client import Store
from tests.moraine.store.quick_cleanup import keep_replaced_parts_briefly

config = load_config(None)
store = Store.open(config.store_dsn, config.database)
keep_replaced_parts_briefly(store)
store.close()
"""


def test_an_import_keeps_no_copy_and_a_forget_leaves_the_conversation_in_no_file(tmp_path: Path) -> None:
    home = new_home(tmp_path)
    legacy = home.moraine / "imports" / "chatgpt" / "conversations.json"  # what earlier versions kept
    legacy.parent.mkdir(parents=True)
    legacy.write_text(json.dumps([{"title": SPOKEN, "mapping": {}}]), encoding="utf-8")
    archive = _export(home)
    imported = home.moraine_cli("import", str(archive))
    assert imported.code == 0 and "conversations 2" in imported.output, imported.output
    assert home.holding(TOKEN, skip=("Downloads",)) == []  # the store has it redacted; no copy has it raw
    assert not legacy.parent.parent.exists()
    assert home.python(_BRIEF_CLEANUP).code == 0  # the forget waits 1 s for replaced parts, not 10
    forgot = home.moraine_cli("forget", "--harness", "chatgpt", "--yes")
    assert forgot.code == 0 and "forgot 2 session(s)" in forgot.output, forgot.output
    assert home.holding(SPOKEN, skip=("Downloads",)) == []
