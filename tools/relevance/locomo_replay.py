"""LoCoMo replayed in this process on the stores a run through ``moraine mcp`` kept (``--keep``): the same search
the search_sessions handler runs for each question (default event types, ``n_hits`` 50, the default ranking,
hybrid with the shipped embedder), without a daemon or an MCP round trip, so that a ranking variant can be tried
on the dev half in minutes. It reproduced the MCP run's ranks exactly (2026-12-04: 997 questions, lexical and
hybrid, sessions and evidence turns). Confirm a kept change through ``moraine mcp``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moraine.ids import session_id, session_key
from moraine.semantic.embedder import Embedder
from moraine.semantic.hybrid import Hybrid, SemanticSettings
from moraine.store.client import Store
from moraine.store.reads.search import Bm25, SearchHit, SearchQuery, search
from moraine.store.reads.timestamps import format_timestamp
from moraine.terms.query import parse_query
from tools.relevance.locomo import N_HITS, Ranks, rank_hits, turn_rank
from tools.relevance.locomo_data import load_conversation

__all__ = ["TYPES", "replay_conversation"]

TYPES = ("user_input", "assistant_response")  # search_sessions' default event types


def _as_dict(hit: SearchHit) -> dict[str, Any]:
    """The fields of a hit the ranks read, as the MCP response spells them."""
    return {
        "session": {"id": str(session_id(hit.session.key))},
        "event": {"timestamp": format_timestamp(hit.event.timestamp)},
    }


def replay_conversation(
    path: Path, methods: Sequence[str], keep: Path, embedder: Embedder | None = None, bm25: Bm25 = Bm25()
) -> Ranks:
    """Rank one kept conversation's questions by each method ("lexical"; "hybrid" needs ``embedder``)."""
    conversation = load_conversation(path)
    store_dir = keep / conversation.name / ".moraine" / "store"
    if not store_dir.is_dir():
        raise FileNotFoundError(f"no kept store at {store_dir}: run --locomo with --keep first")
    ids = {
        n: str(session_id(session_key("claude", conversation.session_uuid(n)))) for n in conversation.sessions
    }
    numbers = {sid: n for n, sid in ids.items()}
    ranks = Ranks()
    store = Store.open(f"chdb://{store_dir}", "moraine")
    try:
        for method in methods:
            if method == "hybrid" and embedder is None:
                raise ValueError("hybrid replay needs the embedder")
            hybrid = Hybrid(embedder, SemanticSettings()) if method == "hybrid" and embedder else None
            sessions, turns = [], []
            for q in conversation.questions:
                parsed = parse_query(q.text)
                fuser = hybrid.fuser(parsed, TYPES) if hybrid is not None else None
                page = search(store, SearchQuery.from_query(parsed, TYPES, N_HITS), bm25, 300, fuse=fuser)
                hits = [_as_dict(hit) for hit in page.hits]
                sessions.append((q.category, rank_hits(hits, {ids[n] for n in q.gold if n in ids})))
                turns.append((q.category, turn_rank(hits, conversation, numbers, q.evidence)))
            ranks.by_method[method], ranks.turns_by_method[method] = sessions, turns
    finally:
        store.close()
    return ranks
