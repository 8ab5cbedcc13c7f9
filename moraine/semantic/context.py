"""A message's meaning in its conversation: its similarity to the query blended with its neighbours'.

A message is understood beside the one before or after it: the answer "it took me three months" is about whatever
the question above it asked, and a short "wow, what made you get a third?" that happens to sound like the query sits
among messages about something else. A candidate's similarity in context is ``(own + w * best neighbour) / (1 + w)``,
where the neighbours are the vectorized events just before and after it in its session (within 16 seqs of it; a
candidate without any keeps its own similarity). The better neighbour, not their mean: the exchange that did
the work is often followed by unrelated chatter ("thanks, now commit it"), which must not pull it down.

Measured (``[semantic] context`` 0.3, 2026-12-02) on LoCoMo's dev half: hybrid MRR 0.840 -> 0.853 with every
lexical candidate in context, 0.852 with the best 10 (what the search reads, for its cost). The mean of the
neighbours did as well there but lowered the project's relevance set (its answers are followed by such chatter);
lifting only (never lowering) a similarity gained nothing, so the gain is in demoting messages that merely sound
like the query.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping

__all__ = ["in_context"]


def in_context(
    refs: Iterable[tuple[int, int]], similarities: Mapping[tuple[int, int], float], weight: float, reach: int
) -> dict[tuple[int, int], float]:
    """Return the similarity in context of each ref (session key, seq) that has a vector in ``similarities``
    (by (session key, seq), holding every vector within ``reach`` seqs of each ref); a neighbour further away than
    ``reach`` is not one."""
    by_session: dict[int, list[int]] = {}
    for key, seq in similarities:
        by_session.setdefault(key, []).append(seq)
    for seqs in by_session.values():
        seqs.sort()
    out: dict[tuple[int, int], float] = {}
    for key, seq in refs:
        own = similarities.get((key, seq))
        if own is None:
            continue  # no vector of its own (not embedded yet, or not a vectorized type)
        seqs = by_session[key]
        at = bisect_left(seqs, seq)
        neighbours = [
            similarities[(key, seqs[i])]
            for i in (at - 1, at + 1)
            if 0 <= i < len(seqs) and abs(seqs[i] - seq) <= reach
        ]
        if neighbours and weight > 0:
            own = (own + weight * max(neighbours)) / (1 + weight)
        out[(key, seq)] = own
    return out
