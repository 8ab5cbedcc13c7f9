"""The reply before its prompt: a person's question naming the query hands its place to the answer after it.

A conversation between people answers a question in the message that follows it. When a candidate ``user_input``
holds a question naming one of the query's terms (``moraine.terms.asking``) and the very next event of its session
(within the turn when the search is scoped to one) is a ``user_input`` too (one person answering another: LoCoMo's
dialogs, or any chat recorded as user messages), that reply takes the prompt's score if its own is lower, and the
prompt keeps ``PROMPT_SHARE`` of its own, so the reply comes first and the prompt right after. The reply joins the
ranking if it was not a candidate (the ranking is cut to the length asked for). In an agent's session a user's
question is followed by the agent's work (tool calls, its answer), and a tool call by the next tool call: neither
is a reply, and the rule leaves them alone (applied to them, it lowered the coding relevance set: paraphrase
MRR@10 0.746 -> 0.733, a user's "are we in a worktree?" overtaken by their next message; tool-call 0.798 -> 0.793,
a web fetch whose prompt asked a question overtaken by the next fetch).

Measured on LoCoMo's dev half (conversations 26 and 30, 2026-12-03): evidence turn hybrid hit@1 40.4 % -> 51.3 %,
hit@5 67.9 % -> 77.5 %, MRR@10 0.516 -> 0.620, the session figures unchanged (a reply is in its prompt's session).
Any question mark instead of a question naming a query term did less (hit@1 46.4 %): chat messages often end by
asking something else ("What's up with you?"). An agent's answer to its user's question is left where it is: what a
person remembers of such an exchange is often their own question (the relevance set labels it so), and placing the
answer first, or just after the question, lowered that set's paraphrase / partial-memory MRR@10 (hybrid 0.787 ->
0.759 / 0.867 -> 0.866).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from moraine.ranking import PROMPT_SHARE, REPLY_REACH
from moraine.terms.asking import asks_about
from moraine.store.client import Store
from moraine.store.reads.scored import Scored

__all__ = [
    "ASKS",
    "SPOKEN",
    "find_replies",
    "lift_replies",
    "reach",
    "replies_first",
    "window_condition",
    "window_parameters",
]

SPOKEN = "user_input"  # what a person says; a reply is one person answering another
ASKS = "(position(text, '?') > 0 OR position(text, '？') > 0)"  # an event that may ask something


def reach(types: Sequence[str]) -> int:
    """How many seqs after a candidate its reply may be: ``REPLY_REACH`` when the search covers what a person says,
    else 0 (no candidate can hand its place on)."""
    return REPLY_REACH if SPOKEN in types else 0


def window_condition(turn_seq: int | None) -> str:
    """The condition on the events a candidate's reply may be in: from each candidate (parameter ``pairs``) to
    ``reach`` seqs after it, within ``turn_seq`` when scoped (the parameters of ``window_parameters``)."""
    where = (
        "session_key IN {keys:Array(UInt64)} AND arrayExists(p -> p.1 = session_key AND seq >= p.2 "
        "AND seq <= p.2 + {reach:UInt32}, {pairs:Array(Tuple(UInt64, UInt32))})"
    )
    return where + (" AND turn_seq = {turn_seq:UInt32}" if turn_seq is not None else "")


def window_parameters(
    ranked: Sequence[Scored], types: Sequence[str], turn_seq: int | None
) -> dict[str, object]:
    """The parameters of ``window_condition`` for these candidates."""
    pairs = sorted({row.ref for row in ranked})
    params: dict[str, object] = {
        "keys": sorted({key for key, _ in pairs}),
        "pairs": pairs,
        "reach": reach(types),
    }
    if turn_seq is not None:
        params["turn_seq"] = turn_seq
    return params


def find_replies(
    rows: Iterable[tuple[int, int, str, str]], words: Collection[str]
) -> dict[tuple[int, int], int]:
    """From the events of the candidates' windows, each as (session key, seq, type, text: given for the candidates
    that may ask, else empty), return the candidate prompts that ask about ``words``, each with the seq of the event
    that follows it in its session when that event is a ``user_input`` too."""
    kinds: dict[tuple[int, int], str] = {}
    prompts: list[tuple[int, int]] = []
    for key, seq, kind, text in rows:
        kinds[(key, seq)] = kind
        if text and asks_about(text, words):
            prompts.append((key, seq))
    out: dict[tuple[int, int], int] = {}
    for key, seq in prompts:
        after = [s for k, s in kinds if k == key and s > seq]
        if after and kinds[(key, seq)] == SPOKEN and kinds[(key, min(after))] == SPOKEN:
            out[(key, seq)] = min(after)
    return out


def _replies(
    store: Store,
    ranked: Sequence[Scored],
    words: Collection[str],
    types: Sequence[str],
    turn_seq: int | None,
) -> dict[tuple[int, int], int]:
    """``find_replies`` over one read: the candidates' windows, with the text of the candidates that hold a
    question mark (the rest of the text is not needed)."""
    if not reach(types):
        return {}
    rows = store.query(
        "SELECT session_key, seq, type, if((session_key, seq) IN {pairs:Array(Tuple(UInt64, UInt32))} "
        f"AND {ASKS}, text, '') FROM {store.table('events')} WHERE {window_condition(turn_seq)}",
        window_parameters(ranked, types, turn_seq),
    )
    return find_replies(((int(k), int(s), str(t), str(x)) for k, s, t, x in rows), words)


def replies_first(
    store: Store,
    ranked: list[Scored],
    words: Collection[str],
    types: Sequence[str],
    limit: int,
    turn_seq: int | None = None,
) -> list[Scored]:
    """Return ``ranked`` (best first) with each prompt's reply lifted, best first, at most
    ``limit`` of them: the reply to the prompt's score, the prompt lowered to ``PROMPT_SHARE`` of it."""
    if not ranked or not words:
        return ranked
    return lift_replies(ranked, _replies(store, ranked, words, types, turn_seq), limit)


def lift_replies(ranked: list[Scored], replies: dict[tuple[int, int], int], limit: int) -> list[Scored]:
    """Return ``ranked`` with each prompt of ``replies`` handing its place to its reply (see ``replies_first``)."""
    if not replies:
        return ranked
    scores: dict[tuple[int, int], float] = {}
    order: list[tuple[int, int]] = []  # first-placed order: a tie keeps the earlier place
    for key, seq, score in ranked:
        found = replies.get((key, seq))
        if found is not None:
            lifted = (key, found)
            if lifted not in scores:
                order.append(lifted)
            scores[lifted] = max(scores.get(lifted, 0.0), score)
            score *= PROMPT_SHARE
        if (key, seq) not in scores:
            order.append((key, seq))
        scores[(key, seq)] = max(scores.get((key, seq), 0.0), score)
    place = {ref: i for i, ref in enumerate(order)}
    best = sorted(order, key=lambda ref: (-scores[ref], place[ref]))[: max(limit, len(ranked))]
    return [Scored(key, seq, scores[(key, seq)]) for key, seq in best]
