"""Antigravity conversations: the CLI's prompts and the brain documents, read by conversation file."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from tests.harnesses.run import events, normalize_file

from moraine.harnesses.antigravity.adapter import AntigravityAdapter
from moraine.harnesses.antigravity.reader import AntigravityReader
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import EventType, IngestError, RawRecord, SessionInfo

FIXTURE = Path(__file__).resolve().parent / "home" / ".gemini"
CLI_ID = "3d8e2b71-9f04-4c6a-a5e1-7b20c4d9e816"


def _home(tmp_path: Path) -> Path:
    """Copy the fixture folders with each conversation database built from its dump."""
    root = tmp_path / ".gemini"
    shutil.copytree(FIXTURE, root)
    for dump in root.rglob("*.db.sql"):
        connection = sqlite3.connect(dump.with_suffix(""))
        connection.executescript(dump.read_text(encoding="utf-8"))
        connection.close()
    return root


def test_a_cli_conversation_reads_its_own_prompts_with_the_workspace_and_its_documents(
    tmp_path: Path,
) -> None:
    conversation = _home(tmp_path) / "antigravity-cli" / "conversations" / f"{CLI_ID}.db"
    items, end = normalize_file(AntigravityAdapter(), conversation, reader=AntigravityReader())
    assert end == 0  # every pass reads the conversation's records again
    found = events(items)
    assert {e.session for e in found} == {CLI_ID}
    prompts = [e for e in found if e.type is EventType.USER_INPUT]
    assert [p.text[:24] for p in prompts] == ["make the kite simulator ", "now plot the gust profil"]
    assert all(p.starts_turn and p.cwd == "/home/dev/kites" for p in prompts)
    assert prompts[0].timestamp is not None and prompts[0].timestamp.year == 2026
    documents = [e for e in found if e.type is EventType.ASSISTANT_RESPONSE]
    assert [d.provenance["artifact"] for d in documents] == ["task.md", "walkthrough.md"]
    assert documents[0].text.startswith("[task: task.md]\nRead wind samples from a CSV file\n# Wind data")
    assert not any(e.is_final_answer for e in found)  # the replies themselves are not readable
    assert [i.cwd for i in items if isinstance(i, SessionInfo)] == ["/home/dev/kites"]


def test_records_already_emitted_are_not_emitted_again_and_a_rewritten_document_is_a_new_version(
    tmp_path: Path,
) -> None:
    root = _home(tmp_path) / "antigravity-cli"
    conversation = root / "conversations" / f"{CLI_ID}.db"
    ctx = StreamContext(conversation, "antigravity-cli")
    reader = AntigravityReader()
    normalize_file(AntigravityAdapter(), conversation, ctx, reader)
    assert events(normalize_file(AntigravityAdapter(), conversation, ctx, reader)[0]) == []
    (root / "brain" / CLI_ID / "task.md").write_text("# Wind data from CSV\n- [x] Plot the gust profile\n")
    again = events(normalize_file(AntigravityAdapter(), conversation, ctx, reader)[0])
    assert [(e.type, e.provenance["artifact"]) for e in again] == [(EventType.ASSISTANT_RESPONSE, "task.md")]


def test_an_encrypted_transcript_beside_a_database_is_left_to_the_database(tmp_path: Path) -> None:
    conversations = _home(tmp_path) / "antigravity-cli" / "conversations"
    encrypted = conversations / f"{CLI_ID}.pb"
    encrypted.write_bytes(b"\x8a\x01\x02opaque")
    assert list(AntigravityReader().read(encrypted, 0, 0)) == []
    (conversations / f"{CLI_ID}.db").unlink()
    assert len(list(AntigravityReader().read(encrypted, 0, 0))) == 4  # alone, it is read (prompts, documents)


def test_a_record_of_another_kind_is_reported() -> None:
    ctx = StreamContext(Path("x.db"), "antigravity")
    for data in ({"record": "step", "key": "k"}, {"record": "antigravity_prompt"}, ["list"]):
        assert [type(i) for i in AntigravityAdapter().normalize(RawRecord(data, 1, 0), ctx)] == [IngestError]
