"""The form of a question: one that asks *when* is answered by a message that says when.

"When did Caroline go to the support group?" is answered by "I went to a support group yesterday", which shares
its words with many messages that do not say when. ``asks_when`` reads the question's first two words; ``TIME_WORDS``
is the pattern (RE2 and Python alike) of the words that place a message in time: relative days and periods,
weekdays, months, a year. ``moraine.store.reads.saidwhen`` lifts the candidates that hold one.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["TIME_WORDS", "asks_when"]

TIME_WORDS = (
    r"(?i)\b(yesterday|today|tonight|tomorrow|last|next|ago|weeks?|weekend|months?|years?|recently|soon|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|(19|20)\d\d)\b"
)


# The words that follow a question's "when" ("when did", "when is she"), where a clause's "when" is followed by its
# subject ("when I said it works": a coding query recalling a moment, which the lift misranked).
_AUXILIARIES = frozenset(
    "did do does is was were are will would has have had can could should shall may might must".split()
)


def asks_when(words: Sequence[str]) -> bool:
    """Whether a query, as its terms in order (function words included), asks when: "when" and then an auxiliary
    verb ("When did Caroline go...", "When is the party")."""
    return len(words) > 1 and words[0] == "when" and words[1] in _AUXILIARIES
