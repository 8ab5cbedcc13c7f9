"""Cut a short snippet around the matched query terms (never the whole payload)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Snippet", "make_snippet"]

_MAX_MATCHES_PER_TERM = 256
_SNAP = 16  # how far a window edge may move to land on whitespace
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Snippet:
    text: str
    truncated: bool


@dataclass(frozen=True, slots=True)
class _Match:
    start: int
    end: int
    term: str


def _matches(text: str, terms: list[str]) -> list[_Match]:
    found: list[_Match] = []
    for term in terms:
        pattern = re.compile(re.escape(term), re.IGNORECASE)
        for n, match in enumerate(pattern.finditer(text)):
            if n >= _MAX_MATCHES_PER_TERM:
                break
            found.append(_Match(match.start(), match.end(), term))
    found.sort(key=lambda m: (m.start, -m.end))
    return found


def _best_cluster(matches: list[_Match], width: int) -> tuple[int, int]:
    """Return (start, end) of the window-sized run of matches with the most distinct terms, earliest first."""
    best: tuple[int, int, int, int] | None = None  # (-distinct, -count, start, end)
    j = 0
    for i, first in enumerate(matches):
        j = max(j, i)
        while j + 1 < len(matches) and matches[j + 1].end - first.start <= width:
            j += 1
        run = matches[i : j + 1]
        end = max(m.end for m in run)
        score = (-len({m.term for m in run}), -len(run), first.start, end)
        if best is None or score < best:
            best = score
    assert best is not None
    return best[2], best[3]


def _window(text: str, start: int, end: int, width: int) -> tuple[int, int]:
    pad = max(0, (width - (end - start)) // 2)
    lo = max(0, start - min(pad, width // 3))
    hi = min(len(text), max(end, lo + width))
    if hi == len(text):
        lo = max(0, min(lo, hi - width))
    if lo > 0:
        space = text.find(" ", lo, min(start, lo + _SNAP))
        if space != -1:
            lo = space + 1
    if hi < len(text):
        space = text.rfind(" ", max(end, hi - _SNAP), hi)
        if space != -1:
            hi = space
    return lo, hi


def make_snippet(sources: list[str], terms: list[str], width: int) -> Snippet:
    """Return a window of about ``width`` characters around the densest matches of ``terms`` in the first
    source that contains any (the first source's opening when none does), with ``...`` where text was cut (and
    only there: readers show the text as it is, without a mark of their own)."""
    text = next((s for s in sources if s), "")
    start = end = 0
    for candidate in sources:
        matches = _matches(candidate, terms) if candidate else []
        if matches:
            text = candidate
            start, end = _best_cluster(matches, width)
            break
    if len(text) <= width:
        return Snippet(_SPACE.sub(" ", text).strip(), False)
    lo, hi = _window(text, start, end, width)
    body = _SPACE.sub(" ", text[lo:hi]).strip()
    return Snippet(f"{'...' if lo > 0 else ''}{body}{'...' if hi < len(text) else ''}", True)
