"""A search query read once: its terms, their other forms, every term, the date it names, its plain words.

``parse_query`` is the one place the query text is read; everything downstream (the BM25 ranking, the hybrid
ranker's decision, the native-ID lookup) takes the ``ParsedQuery`` it returns.

Function words: a question in natural language ("what did she say about the trip to Paris?") carries words that
occur in nearly every message; each still adds a little BM25 weight, enough to lift long messages full of them over
the one that holds the rare words. They are left out of ``terms`` (English, Spanish, French, German, Portuguese)
unless the query is made of nothing else ("to be or not to be" stays); ``every_term`` keeps them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from moraine.errors import RequestError
from moraine.terms.questionform import asks_when
from moraine.terms.forms import related_forms
from moraine.terms.timecue import Period, time_cue
from moraine.terms.tokenize import query_terms

__all__ = ["FUNCTION_WORDS", "ParsedQuery", "parse_query"]

FUNCTION_WORDS = frozenset(
    """
    a an the and or but nor so if then than as of at by for from in into on onto to with without about over under
    up down out off again further once here there when where why how what which who whom whose this that these those
    is am are was were be been being have has had having do does did doing done will would shall should can could
    might must i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves all any both each few more most other some
    such no not only own same too very just also s t d ll m re ve
    """.split()
) | frozenset(
    # The same in the languages people most often write to agents in besides English (Spanish, French, German,
    # Portuguese), leaving out what is also an English word worth searching (con, son, die, mit, com, comment).
    """
    de del la el los las un una unos unas y que en por para se su sus al lo como pero más qué cómo porque
    du des le les une et ou qui dans pour sur avec au aux est ce cette ces sa ses pourquoi quoi
    der das den dem ein eine einen einem einer und oder ist nicht für von zu auf im ins bei aus sich warum wie wer
    do da dos das o os as um uma em na nos nas ao é
    """.split()
)
_WORD = re.compile(r"^[^\W\d_]+$")
_CAMEL = re.compile(r"[a-z][A-Z]")
_EDGE_PUNCT = "\"'“”‘’«»()[]{}?!.,;:¿¡"
_NO_TERMS = "query has no searchable terms: use words, numbers or identifiers, not only punctuation"


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A search query as every ranker reads it.

    ``text`` is the query trimmed (what the envelope echoes); ``terms`` its distinct terms in first-seen order
    without function words (unless nothing else is left); ``forms`` the other English forms of ``terms``, ranked
    beside them; ``every_term`` the distinct terms with the function words; ``period`` the calendar date it names;
    ``natural_words`` its count of plain words (what decides hybrid ranking); ``maybe_native_id`` whether it could
    be a harness's own session ID (it has a digit, ``-`` or ``_``: every harness ID does); ``asks_when`` whether
    it asks when (its first word is "when": ``moraine.terms.questionform``).
    """

    text: str
    terms: tuple[str, ...]
    forms: tuple[str, ...]
    every_term: tuple[str, ...]
    period: Period | None
    natural_words: int
    maybe_native_id: bool
    asks_when: bool = False


def parse_query(text: str) -> ParsedQuery:
    """Read a search query once.

    Raises:
        RequestError: the query has no searchable terms (only punctuation or blanks), on field ``query``.
    """
    text = text.strip()
    every = query_terms(text)
    if not every:
        raise RequestError(_NO_TERMS, field="query")
    terms = [t for t in every if t not in FUNCTION_WORDS] or every
    return ParsedQuery(
        text=text,
        terms=tuple(terms),
        forms=tuple(related_forms(terms, exclude=FUNCTION_WORDS)),
        every_term=tuple(every),
        period=time_cue(text),
        natural_words=_natural_words(text),
        maybe_native_id=any(c.isdigit() or c in "-_" for c in text),
        asks_when=asks_when(every),
    )


def _natural_words(text: str) -> int:
    """Count the plain words of ``text``: letters only, not camelCase; in a token written in CJK or kana (a
    sentence without spaces) its wide letters count one per two, whatever Latin words or punctuation it holds
    ("OpenAIに切り替えてGPT5を使うのは...")."""
    count = 0
    for token in text.split():
        word = token.strip(_EDGE_PUNCT)
        wide = sum(1 for ch in word if ord(ch) >= 0x2E80 and ch.isalpha())
        if wide >= 2:
            count += wide // 2
        elif word and _WORD.match(word) and not _CAMEL.search(word):
            count += 1
    return count
