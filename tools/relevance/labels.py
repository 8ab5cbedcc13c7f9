"""The labeled query sets: load a ``queries.json`` and resolve each answer (session + phrase) to its event."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from moraine.ids import session_key
from moraine.store.client import Store
from tests.fixtures.relevance.corpus import SESSIONS, session_uuid

__all__ = [
    "DEFAULT_TYPES",
    "QUERIES_FILE",
    "Answer",
    "LabeledQuery",
    "LabelError",
    "load_queries",
    "matching_seqs",
    "resolve",
]

QUERIES_FILE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "relevance" / "queries.json"
DEFAULT_TYPES = ("user_input", "assistant_response")
_SOURCES = {"codex": ("codex", "codex"), "claude": ("claude", "claude-code")}

# (session name, a phrase, how many searched events of that session hold it: 1 unless equivalent copies exist)
Answer = tuple[str, str, int]


class LabelError(Exception):
    """A label does not name exactly one event of the corpus."""


@dataclass(frozen=True, slots=True)
class LabeledQuery:
    id: str
    category: str
    query: str
    event_types: tuple[str, ...]
    session: str
    phrase: str
    count: int = 1  # how many events hold the phrase (equivalent copies, e.g. the same file read twice)
    also: tuple[Answer, ...] = ()  # further equivalent answer events
    answer_kind: str = (
        ""  # what the answer is (the coding set: tool-call, tool-output, identifier, prose, non-english)
    )

    @property
    def answers(self) -> tuple[Answer, ...]:
        """Every acceptable answer, the first one first."""
        return ((self.session, self.phrase, self.count), *self.also)


def _answer(raw: object) -> Answer:
    """``[session, phrase]`` or ``[session, phrase, count]``."""
    if (
        not isinstance(raw, list)
        or len(raw) not in (2, 3)
        or not all(isinstance(v, str) and v for v in raw[:2])
    ):
        raise ValueError(f"an answer is [session, phrase] or [session, phrase, count], not {raw!r}")
    count = raw[2] if len(raw) == 3 else 1
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"an answer's count is a positive integer, not {count!r}")
    return raw[0], raw[1], count


def load_queries(path: Path = QUERIES_FILE) -> list[LabeledQuery]:
    """Read the labeled queries (raise LabelError on a malformed entry)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for raw in data["queries"]:
        try:
            session, phrase, count = _answer(raw["answer"])
            also = tuple(_answer(a) for a in raw.get("also", ()))
            out.append(
                LabeledQuery(raw["id"], raw["category"], raw["query"],
                             tuple(raw.get("event_types", DEFAULT_TYPES)), session, phrase, count, also,
                             str(raw.get("answer_kind", "")))
            )  # fmt: skip
        except (KeyError, ValueError, TypeError) as exc:
            raise LabelError(f"query {raw!r} is malformed: {exc}") from exc
    return out


def source_of(harness: str) -> tuple[str, str]:
    """Return the (source name, harness name) the corpus's files are ingested as."""
    return _SOURCES[harness]


def matching_seqs(store: Store, key: int, types: tuple[str, ...], phrase: str) -> list[int]:
    """Return the seqs of the session's events of these types holding the phrase (a tool call: in its arguments)."""
    rows = store.query(
        f"SELECT seq FROM {store.table('events')} WHERE session_key = {{key:UInt64}} "
        "AND type IN {types:Array(String)} "
        "AND position(if(type = 'tool_call', ifNull(arguments, ''), text), {phrase:String}) > 0 ORDER BY seq",
        {"key": key, "types": list(types), "phrase": phrase},
    )
    return [int(row[0]) for row in rows]


def resolve(store: Store, queries: list[LabeledQuery]) -> dict[str, tuple[int, int]]:
    """Return the answer event (session key, seq) of every query; raise LabelError unless exactly one matches."""
    index = {s.name: (i, s) for i, s in enumerate(SESSIONS)}
    out: dict[str, tuple[int, int]] = {}
    for q in queries:
        if q.session not in index:
            raise LabelError(f"{q.id}: unknown session {q.session!r}")
        number, session = index[q.session]
        source, _harness = source_of(session.harness)
        key = session_key(source, session_uuid(number, session.harness))
        seqs = matching_seqs(store, key, q.event_types, q.phrase)
        if len(seqs) != 1:
            raise LabelError(f"{q.id}: phrase {q.phrase!r} matches {len(seqs)} events of {q.session}, not 1")
        out[q.id] = (key, seqs[0])
    return out
