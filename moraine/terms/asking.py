"""Whether a message asks about the query: one of its questions (a sentence ending in a question mark) holds one of
the query's terms.

Such a message is the prompt of the answer, not the answer: "You play any instruments?" matches "What instruments
does Melanie play?" better than "Yeah, I play clarinet!" does. ``moraine.store.reads.replies`` puts the reply first.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from moraine.terms.tokenize import tokenize

__all__ = ["asks_about", "may_ask"]

# A question: the run of text since the last sentence end (or line break) up to a question mark.
_QUESTION = re.compile(r"[^.!?。！？\n]*[?？]")


def may_ask(text: str) -> bool:
    """Whether the text holds a question mark at all (the cheap test before ``asks_about``)."""
    return "?" in text or "？" in text


def asks_about(text: str, words: Collection[str]) -> bool:
    """Whether one of the text's questions holds one of ``words`` (terms as ``tokenize`` writes them)."""
    wanted = set(words)
    return any(not wanted.isdisjoint(tokenize(m.group(0))) for m in _QUESTION.finditer(text))
