"""The terms a search query is ranked by: its distinct terms without function words (English, Spanish, French,
German, Portuguese).

A question in natural language ("what did she say about the trip to Paris?") carries words that occur in nearly
every message; each still adds a little BM25 weight, enough to lift long messages full of them over the one that
holds the rare words. They are dropped unless the query is made of nothing else ("to be or not to be" stays).
"""

from __future__ import annotations

from moraine.search.forms import related_forms
from moraine.search.tokenize import query_terms

__all__ = ["FUNCTION_WORDS", "search_forms", "search_terms"]

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


def search_terms(text: str) -> list[str]:
    """Return the query's distinct terms in first-seen order, function words left out unless there is nothing else."""
    terms = query_terms(text)
    content = [t for t in terms if t not in FUNCTION_WORDS]
    return content or terms


def search_forms(terms: list[str]) -> list[str]:
    """Return the other English forms of the query's terms that are ranked beside them (no function words)."""
    return related_forms(terms, exclude=FUNCTION_WORDS)
