"""Required literals of a regex: strings one of which every match contains (the ruleset's keyword pre-filter).

``required_literals`` walks the pattern's parse tree (``re._parser``, the parser ``re.compile`` itself uses): in a
sequence the best run of consecutive literal characters or the best requirement of a sub-part wins (the one whose
shortest literal is longest); an alternation requires one of each branch's; a repeat of at least one requires its
body's; among several, the rarest-looking set wins (see ``_rank``). Literals are lower-cased (the filter runs over lower-cased text, so case-insensitive patterns are covered).
A pattern with no literal of at least ``MIN_LITERAL`` characters gets ``None``: it has to run on every text.
"""

from __future__ import annotations

import importlib
import re
import warnings
from typing import Any

# The parse tree re.compile itself builds (no public API offers it; typeshed has no stubs for these modules).
C: Any = importlib.import_module("re._constants")
P: Any = importlib.import_module("re._parser")

__all__ = ["MIN_LITERAL", "common", "max_width", "required_literals"]

_MAX_SPELLINGS = 16  # a run like "cf[ua]t_" is kept as its spellings while they are this few
MIN_LITERAL = 3  # shorter literals ("ey", "sk") occur in most texts: no use as a filter

# Words so common in code and prose that a literal containing one filters little; used only to choose among a
# pattern's literals (a rule whose every literal is common still gets them).
_COMMON = re.compile(
    r"token|key|secret|access|test|live|api|app|session|pat|sat|pass|auth|user|client|private|ion_"
)

Needed = frozenset[str] | None  # one of these strings occurs in every match (None: nothing is known)


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Return lower-cased strings one of which every match of ``pattern`` contains, or None."""
    return _sequence(list(_parse(pattern)))


def common(literals: frozenset[str]) -> bool:
    """Say whether one of ``literals`` holds an everyday word (a pre-filter on them would wake up often)."""
    return any(_COMMON.search(literal) for literal in literals)


def max_width(pattern: re.Pattern[str]) -> int | None:
    """Return the most characters a match of ``pattern`` can span, or None when it is unbounded."""
    width = int(_parse(pattern).getwidth()[1])
    return None if width >= C.MAXREPEAT else width


def _parse(pattern: re.Pattern[str]) -> Any:
    with warnings.catch_warnings():  # "possible nested set": re.compile accepted the pattern already
        warnings.simplefilter("ignore", FutureWarning)
        return P.parse(pattern.pattern, pattern.flags)


def _better(a: Needed, b: Needed) -> Needed:
    if a is None:
        return b
    if b is None:
        return a
    return a if _rank(a) >= _rank(b) else b


def _rank(needed: frozenset[str]) -> tuple[bool, int, int]:
    """Rarer first: no everyday word (a filter on "token" wakes up for half of all code), then longer, then fewer."""
    return (not any(_COMMON.search(literal) for literal in needed), min(map(len, needed)), -len(needed))


def _usable(needed: Needed) -> Needed:
    return needed if needed and min(map(len, needed)) >= MIN_LITERAL else None


def _sequence(items: list[tuple[Any, Any]]) -> Needed:
    best: Needed = None
    run: set[str] = {""}  # the literal strings the current run of literal characters can spell
    for op, arg in items:
        chars = _literal_chars(op, arg)
        if chars is not None and len(run) * len(chars) <= _MAX_SPELLINGS:
            run = {prefix + char for prefix in run for char in chars}
            continue
        if op is C.AT:  # a zero-width assertion (\b, ^) does not break a run
            continue
        if op is C.BRANCH and run != {""}:  # the parser factors a common prefix out: A(?:KIA|SIA)
            best = _better(best, _usable(_prefixed(run, arg[1])))
        best = _better(best, _usable(frozenset(run)))
        run = {""}
        best = _better(best, _usable(_item(op, arg)))
    return _better(best, _usable(frozenset(run)))


def _prefixed(run: set[str], branches: list[Any]) -> Needed:
    found: set[str] = set()
    for branch in branches:
        lead = set(run)
        for op, arg in branch:
            chars = _literal_chars(op, arg)
            if chars is None or len(lead) * len(chars) > _MAX_SPELLINGS:
                break
            lead = {prefix + char for prefix in lead for char in chars}
        found |= lead
    return frozenset(found)


def _literal_chars(op: Any, arg: Any) -> set[str] | None:
    """Return the (lower-cased) characters a single-character item matches, when it is a few literals."""
    if op is C.LITERAL:
        return {chr(arg).lower()}
    if op is C.IN and all(o is C.LITERAL for o, _ in arg):  # [Ss], [ua]
        return {chr(a).lower() for _, a in arg}
    return None


def _item(op: Any, arg: Any) -> Needed:
    if op is C.SUBPATTERN:
        return _sequence(list(arg[-1]))
    if op is C.BRANCH:
        branches = [_sequence(list(branch)) for branch in arg[1]]
        if any(b is None for b in branches):
            return None
        return frozenset().union(*(b for b in branches if b is not None))
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and arg[0] >= 1:
        return _sequence(list(arg[2]))
    if op is C.ATOMIC_GROUP:
        return _sequence(list(arg))
    return None
