"""A DeepSeek TUI session rewritten in place, ingested again by the same ingestor: new messages and a later title.

Document readers re-parse a rewritten file, yield its header again without moving the position, then only the
messages after it; through the real pipeline the second pass adds the new message once and the new title wins.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from fixtures.corpus.builder import scratch_store
from tests.harnesses.home import HARNESS_TESTS, search

from moraine.config import SourceConfig
from moraine.ingest.pipeline import Ingestor

SESSION = HARNESS_TESTS / "deepseek_tui/home/.deepseek/sessions/5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9.json"


def test_a_second_pass_adds_the_new_message_once_and_takes_the_new_title(
    store_dsn: str, tmp_path: Path
) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    path = folder / SESSION.name
    shutil.copy(SESSION, path)
    source = SourceConfig(
        "deepseek-tui", "deepseek-tui", str(folder / "*.json"), str(folder), "deepseek_tui_json"
    )
    with scratch_store(store_dsn) as store:
        ingestor = Ingestor(store)
        ingestor.run([source], {"deepseek-tui": [path]})
        document = json.loads(path.read_text(encoding="utf-8"))
        document["metadata"]["title"] = "Compass offset persistence"
        document["messages"].append(
            {
                "role": "user",
                "content": "Also log the offset. deepseekosproudkeyword",
                "timestamp": "2026-07-02T14:05:00Z",
            }
        )
        path.write_text(json.dumps(document), encoding="utf-8")
        ingestor.run([source], {"deepseek-tui": [path]})
        new = search(store, "deepseekosproudkeyword", "deepseek-tui")
        assert len(new) == 1 and new[0]["session"]["title"] == "Compass offset persistence"
        assert len(search(store, "deepseekpelicankeyword", "deepseek-tui")) == 1
