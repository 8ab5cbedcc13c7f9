"""Find every secret in a text with all detectors at once, and replace each with ``[REDACTED:<kind>]``.

Most stored strings hold no secret, so the cost that counts is saying so. One Hyperscan database (compiled once,
in well under a second) holds every detector's triggers (the ruleset's required literals, our shapes' key parts), and
the few detectors without one as patterns of their own; one scan of a text reports which triggers occur and where.
Only then do detectors run (Python ``re``, over the original text), each just over the windows around its triggers'
ends (a match contains its trigger, so it lies within the pattern's greatest width of that end); their matches are
merged (overlapping ones become one) and replaced in one pass, so no detector sees another's ``[REDACTED:...]``.

Two things hold for every detector. A secret that ends inside a run of token characters takes the run's rest too (a
rule that pins a length would leave an over-long token's tail). And a secret wrapped onto the next line (a line
ending in token characters, the next one a token alone) is found by searching the text again with that break taken
out; the database reports such breaks in the same scan, so a text without one costs nothing more.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

import hyperscan

from moraine.redact.detector import Detector

__all__ = ["Redactor"]

# A match is looked for this far at most on either side of its trigger: a secret longer than this (a private key
# block of more than 8 KB) is redacted in part. Most patterns span far less, and their windows are that small.
_MAX_WINDOW = 8192
_SLACK = 16  # a trigger may run a few characters past the match it announces (the boundary after a token)
_WHOLE = (0, -1)  # the window "the whole text"
_TOKEN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_TAIL = re.compile(r"[A-Za-z0-9_-]*")
# A secret wrapped onto the next line: a line ending in 8 token characters, the next one a token alone (its tail).
_BREAK = r"[A-Za-z0-9_+/=-]{8}(\r?\n)(?=[A-Za-z0-9_+/=-]{2,200}[\"'`]?[,;]?\r?(?:\n|\Z))"
_SPLIT_TRIGGER = r"[a-z0-9_+/=-]{8}\r?\n[a-z0-9_+/=-]{2,200}[\"'`]?[,;]?\r?(?:\n|$)"
_SPLIT = re.compile(_BREAK)
_EVERYWHERE = -1  # a split trigger's end that stands for the whole text


@dataclass(frozen=True, slots=True)
class _Hit:
    detectors: tuple[int, ...]  # indices into Redactor._detectors
    whole: bool  # an untriggered detector's own pattern matched: it runs over the whole text


class Redactor:
    """Redacts text with a fixed set of detectors."""

    def __init__(self, detectors: Sequence[Detector]) -> None:
        self._detectors = tuple(detectors)
        self._widths = [
            _MAX_WINDOW if d.width is None else min(d.width, _MAX_WINDOW) for d in self._detectors
        ]
        self._compiled: list[re.Pattern[str] | None] = [None] * len(self._detectors)  # compiled on first use
        by_trigger: dict[str, list[int]] = {}
        for index, detector in enumerate(self._detectors):
            for trigger in detector.triggers or ():
                by_trigger.setdefault(trigger, []).append(index)
        expressions: list[bytes] = []
        flags: list[int] = []
        self._hits: list[_Hit] = []
        for trigger, indices in sorted(by_trigger.items()):
            expressions.append(trigger.encode())
            flags.append(hyperscan.HS_FLAG_CASELESS)
            self._hits.append(_Hit(tuple(indices), False))
        for index, detector in enumerate(self._detectors):
            if detector.triggers is None:
                expressions.append(_approximation(detector.pattern).encode())
                flags.append(hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_PREFILTER | _flags(detector))
                self._hits.append(_Hit((index,), True))
        self._split = len(expressions)  # the hit id of a line break that may split a secret
        expressions.append(_SPLIT_TRIGGER.encode())
        flags.append(hyperscan.HS_FLAG_CASELESS)
        self._hits.append(_Hit((), False))
        self._database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        self._database.compile(
            expressions=expressions, ids=list(range(len(expressions))), elements=len(expressions), flags=flags
        )
        self._scratch = hyperscan.Scratch(self._database)

    def redact(self, text: str) -> str:
        """Return ``text`` with every detected secret replaced."""
        spans, splits = self._find(text)
        if splits:
            spans += self._across(text, _joins(text, splits))
        return _replace(text, spans) if spans else text

    def _find(self, text: str) -> tuple[list[tuple[int, int, str]], list[int]]:
        """Return the secrets found in ``text``, and the ends of the line breaks where one may continue."""
        data = text.encode("utf-8", "surrogatepass")
        ends: list[tuple[int, int]] = []  # (hit id, end offset), in order of end offset
        splits: list[int] = []

        def on_match(hit_id: int, _start: int, end: int, _flags: int, _context: object) -> None:
            if hit_id == self._split:
                splits.append(end)
            else:
                ends.append((hit_id, end))

        self._database.scan(data, match_event_handler=on_match, scratch=self._scratch)
        ascii_text = len(data) == len(text)
        if splits and not ascii_text:  # byte offsets are not character offsets: look over the whole text
            splits = [_EVERYWHERE]
        if not ends:
            return [], splits
        return self._spans(text, self._windows(ends, ascii_text)), splits

    def _across(self, text: str, joins: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
        """Return the secrets found only once the line breaks at ``joins`` (offset, length) are taken out."""
        if not joins:
            return []
        pieces: list[str] = []
        points: list[int] = []  # where each break was, in the joined text
        removed = [0]  # characters removed up to and including each break
        last = 0
        for offset, length in joins:
            pieces.append(text[last:offset])
            points.append(offset - removed[-1])
            removed.append(removed[-1] + length)
            last = offset + length
        pieces.append(text[last:])
        found: list[tuple[int, int, str]] = []
        for start, end, kind in self._find("".join(pieces))[0]:
            first = bisect.bisect_right(points, start)  # breaks before the secret
            if first < len(points) and points[first] < end:  # the secret runs across a break
                found.append((start + removed[first], end + removed[bisect.bisect_left(points, end)], kind))
        return found

    def _windows(self, ends: list[tuple[int, int]], ascii_text: bool) -> dict[int, list[tuple[int, int]]]:
        """Return, per detector to run, the ranges of the text it must search (merged, in order)."""
        windows: dict[int, list[tuple[int, int]]] = {}
        for hit_id, end in ends:
            hit = self._hits[hit_id]
            for index in hit.detectors:
                spans = windows.setdefault(index, [])
                if hit.whole or not ascii_text:  # byte offsets are character offsets only in ASCII text
                    spans[:] = [_WHOLE]
                    continue
                if spans == [_WHOLE]:
                    continue
                width = self._widths[index]
                low, high = end - width - _SLACK, end + width
                if spans and low <= spans[-1][1]:  # ends come in order: extend the last window
                    spans[-1] = (spans[-1][0], high)
                else:
                    spans.append((low, high))
        return windows

    def _spans(self, text: str, windows: dict[int, list[tuple[int, int]]]) -> list[tuple[int, int, str]]:
        found: list[tuple[int, int, str]] = []
        for index, spans in sorted(windows.items()):
            detector = self._detectors[index]
            pattern = self._compiled[index]
            if pattern is None:
                pattern = self._compiled[index] = detector.compile()
            seen: set[tuple[int, int]] = set()
            for low, high in spans:
                if (low, high) == _WHOLE:
                    low, high = 0, len(text)
                for match in pattern.finditer(text, max(low, 0), high):
                    start, end = _secret(match, detector.groups)
                    if end > start and text[end - 1] in _TOKEN:  # a token longer than its shape: all of it
                        end = _TAIL.match(text, end).end()  # type: ignore[union-attr]
                    if end - start < 1 or (start, end) in seen:
                        continue
                    seen.add((start, end))
                    if detector.accept is None or detector.accept(text[start:end]):
                        found.append((start, end, detector.kind))
        return found


def _flags(detector: Detector) -> int:
    flags = hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_UCP if not detector.pattern.isascii() else 0
    if detector.flags & re.IGNORECASE or detector.pattern.startswith("(?i)"):
        flags |= hyperscan.HS_FLAG_CASELESS
    if detector.flags & re.DOTALL:
        flags |= hyperscan.HS_FLAG_DOTALL
    return flags


def _approximation(pattern: str) -> str:
    """Return the pattern without the lookarounds Hyperscan lacks (a superset: the real pattern decides after)."""
    source = re.sub(r"\(\?<?[=!][^()]*\)", "", pattern)
    return re.sub(r"\(\?P<\w+>", "(", source).replace(r"\Z", "$")


def _secret(match: re.Match[str], groups: tuple[int | str, ...]) -> tuple[int, int]:
    for group in groups:
        start, end = match.span(group)
        if start >= 0:
            return start, end
    return 0, 0


def _replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    if not spans:
        return text
    spans.sort(
        key=lambda span: (span[0], -span[1])
    )  # stable: on a tie the earlier detector (the ruleset) names it
    parts: list[str] = []
    last = 0
    for start, end, kind in spans:
        if start < last:  # overlaps the secret just replaced: widen it
            last = max(last, end)
            continue
        parts.append(text[last:start])
        parts.append(f"[REDACTED:{kind}]")
        last = end
    parts.append(text[last:])
    return "".join(parts)


def _joins(text: str, ends: list[int]) -> list[tuple[int, int]]:
    """Return the line breaks (offset, length) that may split a secret, near the trigger ends in ``ends``."""
    found: set[tuple[int, int]] = set()
    for end in ends:
        low, high = (0, len(text)) if end == _EVERYWHERE else (max(end - 220, 0), end + 8)
        for match in _SPLIT.finditer(text, low, high):
            found.add((match.start(1), len(match.group(1))))
    return sorted(found)
