"""Read turn rows (``turns FINAL``, always filtered by session key and turn range)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.store.client import Store
from moraine.store.reads.settled import TURN_COMPLETED, TURN_TERMINAL

__all__ = [
    "TURN_HEAD_COLUMNS",
    "TurnHead",
    "TurnRecord",
    "fetch_turn",
    "page_turns",
    "turn_head",
]

_COLUMNS = (
    f"session_key, turn_seq, first_seq, last_seq, event_count, {TURN_COMPLETED}, {TURN_TERMINAL}, started_at, "
    "updated_at, "
    "user_input_seq, user_input_text, user_input_truncated, final_seq, final_text, final_truncated, "
    "tools_called, event_types"
)


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """The latest version of one turn's summary row."""

    key: int
    turn_seq: int
    first_seq: int
    last_seq: int
    event_count: int
    completed: bool
    terminal_seq: int | None
    started_at: datetime | None
    updated_at: datetime | None
    user_input_seq: int | None
    user_input_text: str
    user_input_truncated: bool
    final_seq: int | None
    final_text: str
    final_truncated: bool
    tools_called: tuple[str, ...]
    event_types: tuple[str, ...]


TURN_HEAD_COLUMNS = f"session_key, turn_seq, {TURN_COMPLETED}, event_count, {TURN_TERMINAL}"


@dataclass(frozen=True, slots=True)
class TurnHead:
    """What a search hit shows about its turn."""

    key: int
    turn_seq: int
    completed: bool
    event_count: int
    terminal_seq: int | None = None


def turn_head(row: tuple[Any, ...]) -> TurnHead:
    """Build a turn head from a row selected with ``TURN_HEAD_COLUMNS``."""
    return TurnHead(
        key=int(row[0]),
        turn_seq=int(row[1]),
        completed=bool(row[2]),
        event_count=int(row[3]),
        terminal_seq=None if row[4] is None else int(row[4]),
    )


def _record(row: tuple[Any, ...]) -> TurnRecord:
    """Build a record from a row selected with ``_COLUMNS``."""
    return TurnRecord(
        key=int(row[0]),
        turn_seq=int(row[1]),
        first_seq=int(row[2]),
        last_seq=int(row[3]),
        event_count=int(row[4]),
        completed=bool(row[5]),
        terminal_seq=None if row[6] is None else int(row[6]),
        started_at=row[7],
        updated_at=row[8],
        user_input_seq=None if row[9] is None else int(row[9]),
        user_input_text=row[10],
        user_input_truncated=bool(row[11]),
        final_seq=None if row[12] is None else int(row[12]),
        final_text=row[13],
        final_truncated=bool(row[14]),
        tools_called=tuple(row[15]),
        event_types=tuple(row[16]),
    )


def fetch_turn(store: Store, key: int, turn_seq: int) -> TurnRecord | None:
    """Return one turn, or ``None``."""
    rows = store.query(
        f"SELECT {_COLUMNS} FROM {store.table('turns')} FINAL "
        "WHERE session_key = {key:UInt64} AND turn_seq = {turn:UInt32}",
        {"key": key, "turn": turn_seq},
    )
    return _record(rows[0]) if rows else None


def page_turns(store: Store, key: int, after: int, upto: int, limit: int) -> list[TurnRecord]:
    """Return at most ``limit`` turns of a session with ``after < turn_seq <= upto``, in turn order."""
    rows = store.query(
        f"SELECT {_COLUMNS} FROM {store.table('turns')} FINAL "
        "WHERE session_key = {key:UInt64} AND turn_seq > {after:UInt32} AND turn_seq <= {upto:UInt32} "
        "ORDER BY turn_seq LIMIT {limit:UInt32}",
        {"key": key, "after": after, "upto": upto, "limit": limit},
    )
    return [_record(row) for row in rows]
