"""LoCoMo conversations as Claude Code transcripts, and their questions with gold sessions.

The method (``benchmarks/locomo-dev/README.md``): each session of a conversation becomes one transcript, one
``user`` record per dialog turn holding ``"<speaker>: <text>"``, stamped from the session's date one minute apart,
with a UUID per session, all in one project directory. A question's gold sessions are the ones its evidence names.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

__all__ = ["CATEGORIES", "Conversation", "Question", "load_conversation", "write_transcripts"]

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_EVIDENCE = re.compile(r"D(\d+):\d+")
_DIA_ID = re.compile(r"D\d+:\d+")
_NAMESPACE = uuid.UUID("6f1c3a52-8d0e-4b7a-9c25-3e4f5a6b7c8d")


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    category: int
    gold: frozenset[int]  # session numbers named in the evidence
    evidence: frozenset[str] = frozenset()  # the evidence turns' dia_ids, e.g. "D1:3"


@dataclass(frozen=True, slots=True)
class Conversation:
    name: str  # the file's stem, e.g. conversation-26
    sessions: dict[int, tuple[datetime, list[tuple[str, str]]]]  # number -> (start, [(speaker, text)])
    questions: list[Question]
    dia_ids: dict[int, list[str]] = field(
        default_factory=dict
    )  # session number -> its turns' dia_ids, in order

    def turn_id(self, number: int, minute: int) -> str | None:
        """Return the dia_id of session ``number``'s turn written ``minute`` minutes after its start, if any."""
        ids = self.dia_ids.get(number, [])
        return ids[minute] if 0 <= minute < len(ids) else None

    def session_uuid(self, number: int) -> str:
        return str(uuid.uuid5(_NAMESPACE, f"{self.name}/{number}"))


def _date(raw: str) -> datetime:
    """Parse LoCoMo's ``"7:48 pm on 21 May, 2023"`` (taken as UTC)."""
    return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def load_conversation(path: Path) -> Conversation:
    """Read one conversation file; questions without evidence are left out (the method scores only those)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    sessions: dict[int, tuple[datetime, list[tuple[str, str]]]] = {}
    dia_ids: dict[int, list[str]] = {}
    for key, turns in raw.items():
        match = _SESSION_KEY.match(key)
        if match and turns:
            number = int(match.group(1))
            sessions[number] = (
                _date(raw[f"{key}_date_time"]),
                [(str(t["speaker"]), str(t["text"])) for t in turns],
            )
            dia_ids[number] = [str(t.get("dia_id", "")) for t in turns]
    questions = []
    for qa in raw["qa"]:
        evidence = " ".join(qa.get("evidence") or [])
        gold = frozenset(int(n) for n in _EVIDENCE.findall(evidence))
        if gold:
            turns = frozenset(_DIA_ID.findall(evidence))
            questions.append(Question(str(qa["question"]), int(qa["category"]), gold, turns))
    return Conversation(path.stem, dict(sorted(sessions.items())), questions, dia_ids)


def write_transcripts(conversation: Conversation, projects: Path) -> Path:
    """Write one Claude Code transcript per session under ``projects/<project dir>/``; return that directory."""
    cwd = f"/locomo/{conversation.name}"
    directory = projects / cwd.replace("/", "-")
    directory.mkdir(parents=True, exist_ok=True)
    for number, (start, turns) in conversation.sessions.items():
        sid = conversation.session_uuid(number)
        lines, parent = [], None
        for i, (speaker, text) in enumerate(turns):
            record_uuid = str(uuid.uuid5(_NAMESPACE, f"{sid}/{i}"))
            stamp = (start + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            record = {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": cwd,
                "sessionId": sid,
                "type": "user",
                "message": {"role": "user", "content": f"{speaker}: {text}"},
                "uuid": record_uuid,
                "timestamp": stamp,
            }
            lines.append(json.dumps(record, ensure_ascii=False))
            parent = record_uuid
        (directory / f"{sid}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return directory
