"""A question that asks when lifts the candidates that say when (``moraine.terms.questionform``).

The candidates whose text holds a word of ``TIME_WORDS`` (a relative day or period, a weekday, a month, a year)
have their scores multiplied by ``1 + WHEN_WEIGHT``. Measured on LoCoMo's dev half (conversations 26 and 30,
2026-12-03, after replies first): temporal questions' evidence turn hybrid hit@1 68.3 % -> 84.1 %, MRR@10
0.783 -> 0.883, all questions hit@1 51.3 % -> 55.0 %; weights 0.2-0.5 did about as well, 0.8 and more less.
"""

from __future__ import annotations

from moraine.terms.questionform import TIME_WORDS
from moraine.store.client import Store
from moraine.store.reads.scored import Scored

__all__ = ["said_when_lifted"]


def said_when_lifted(store: Store, ranked: list[Scored], weight: float) -> list[Scored]:
    """Return ``ranked`` (best first) with the scores of the candidates that say when
    multiplied by ``1 + weight``, best first (a tie keeps the earlier place)."""
    if not ranked or weight <= 0:
        return ranked
    rows = store.query(
        f"SELECT session_key, seq FROM {store.table('events')} "
        "WHERE (session_key, seq) IN {pairs:Array(Tuple(UInt64, UInt32))} AND match(text, {pattern:String})",
        {"pairs": sorted({row.ref for row in ranked}), "pattern": TIME_WORDS},
    )
    timed = {(int(key), int(seq)) for key, seq in rows}
    lifted = [row._replace(score=row.score * (1.0 + weight)) if row.ref in timed else row for row in ranked]
    return sorted(lifted, key=lambda row: -row.score)
