"""The marker a search hit's snippet starts with when the hit was found by meaning alone (none of the query's words
is in it): the contract's snippet has no field for it, so the text carries it, and every reader (the CLI table, the
web page) shows it as a label."""

from __future__ import annotations

__all__ = ["MEANING_MATCH", "meaning_note"]

MEANING_MATCH = "[meaning match] "


def meaning_note(ranks: list[int]) -> str:
    """Return the response warning naming the ranks of the meaning matches."""
    which = ", ".join(str(rank) for rank in ranks)
    hits = "hit" if len(ranks) == 1 else "hits"
    return f"{hits} {which} match the query's meaning but none of its words (snippet marked {MEANING_MATCH.strip()})"
