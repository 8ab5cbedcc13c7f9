"""Other English forms of a query word: "hiking" also finds "hike", "hikes" and "hiked".

The index keeps words as written, so the forms are found at query time: each plain English word's Snowball (Porter
2) stem, then candidate words made from that stem and common suffixes, kept only when they stem back to the same
stem. The search looks each form up exactly in the postings (a form the corpus lacks costs one missed key) and
weighs it below the word the user typed (``Bm25.form_weight``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import Stemmer  # no type information: see [tool.mypy] in pyproject.toml

__all__ = ["word_forms", "related_forms"]

_SUFFIXES = (
    "", "e", "s", "es", "ed", "d", "ing", "er", "ers", "est", "y", "ies", "ied", "ly", "ness", "ment", "ments",
    "ion", "ions", "ation", "ations", "al", "ity", "able", "ful", "ous",
)  # fmt: skip
_VOWELS = frozenset("aeiouy")
_MIN_CHARS = 3
_stemmer = Stemmer.Stemmer("english")


@lru_cache(maxsize=4096)
def _stem(word: str) -> str:
    return str(_stemmer.stemWord(word))


@lru_cache(maxsize=4096)
def word_forms(word: str) -> tuple[str, ...]:
    """Return the other forms of ``word`` sharing its stem (sorted), or none when it is not a plain English word."""
    if len(word) < _MIN_CHARS or not (word.isascii() and word.isalpha() and word.islower()):
        return ()
    stem = _stem(word)
    bases = {stem, word}
    if stem[-1] in "ie":  # studi -> study, studies; hike -> hiking
        bases.add(stem[:-1])
    if stem[-1] not in _VOWELS and len(stem) >= 3 and stem[-2] in _VOWELS:  # run -> running, plan -> planned
        bases.add(stem + stem[-1])
    candidates = {base + suffix for base in bases for suffix in _SUFFIXES}
    return tuple(sorted(c for c in candidates if c != word and len(c) >= _MIN_CHARS and _stem(c) == stem))


def related_forms(terms: Iterable[str], exclude: Iterable[str] = ()) -> list[str]:
    """Return the other forms of ``terms`` (distinct, first-seen order), none of them in ``terms`` or ``exclude``."""
    terms = list(terms)
    skip = set(terms) | set(exclude)
    seen: dict[str, None] = {}
    for term in terms:
        for form in word_forms(term):
            if form not in skip:
                seen.setdefault(form, None)
    return list(seen)
