"""Piebald: chats assembled from its normalized tables; branches left behind; streaming messages held back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.harnesses.home import build_home
from tests.harnesses.run import events, normalized, read_cleanly, responses

from moraine.harnesses.piebald.reader import PiebaldReader
from moraine.harness_api.model import EventType, TokenUsage


def _store(tmp_path: Path) -> Path:
    return build_home(tmp_path, ["piebald"]) / ".local/share/piebald/app.db"


def test_a_chat_reads_text_nodes_thinking_tools_usage_and_skips_deleted_chats(tmp_path: Path) -> None:
    info, said = read_cleanly("piebald", _store(tmp_path))
    assert (info.session, info.title) == ("7", "Frost alert threshold")
    assert said[0].text == "Raise the frost alert threshold to 2 °C and log each alert. piebaldotterkeyword"
    assert [e.type for e in said[1:3]] == [EventType.REASONING, EventType.TOOL_CALL]
    assert said[1].usage == TokenUsage(input=2400, output=150, cache_read=2000, cache_write=0, reasoning=60)
    assert responses(said) == [("Edit", "toolu_f1", False), ("Bash", "toolu_f2", True)]
    assert not any("deleted chat" in e.text for e in said)


def test_a_regenerated_reply_is_a_side_chain_and_the_shown_reply_is_the_answer(tmp_path: Path) -> None:
    _, said = read_cleanly("piebald", _store(tmp_path))
    answers = [(e.sidechain, e.is_final_answer) for e in said if e.type is EventType.ASSISTANT_RESPONSE]
    assert answers == [(True, False), (False, True)]  # the regenerated one was written first


def test_a_streaming_last_message_waits_until_it_finishes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    connection = sqlite3.connect(store)
    connection.execute(
        "UPDATE messages SET finish_reason = NULL, updated_at = ? WHERE id = 13", ("2100-01-01",)
    )
    connection.commit()
    connection.close()
    state: dict = {}
    reader = PiebaldReader(clock=lambda: 4102444800.0)  # 2100-01-01, within the settle time
    first = events(normalized("piebald", store, state=state, reader=reader))
    assert not any("still expects 0" in e.text for e in first)
    settled = PiebaldReader(clock=lambda: 4102444800.0 + 600)  # ten minutes later: taken as complete
    later = events(normalized("piebald", store, state=state, reader=settled))
    assert [e.text[-19:] for e in later] == ["and needs updating."]
