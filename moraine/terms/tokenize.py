"""The tokenizer shared by ingest (postings) and search (query terms).

Unicode words, lower-cased. A code identifier is kept whole and also split into its parts on path separators,
dots, dashes, snake_case and camelCase (``src/config/parser.py`` -> ``src/config/parser.py``, ``src``, ``config``,
``parser``, ``py``; ``parseConfigFile`` -> ``parseconfigfile``, ``parse``, ``config``, ``file``). Scripts written
without spaces (Han, Hiragana, Katakana, Thai, ...) become overlapping character bigrams. No stemming.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from itertools import chain

from moraine.memo import Memo

__all__ = ["MAX_TERM_CHARS", "query_terms", "term_counts", "tokenize"]

MAX_TERM_CHARS = 64
# A "chunk": letters/digits/underscore joined by the connectors that live inside identifiers and paths.
_CHUNK = re.compile(r"[^\W]+(?:[./\\:@#$-]+[^\W]+)*", re.UNICODE)
_PART = re.compile(r"[^\W_]+", re.UNICODE)


def _is_unspaced_script(char: str) -> bool:
    code = ord(char)
    return (
        0x3040 <= code <= 0x30FF  # Hiragana, Katakana
        or 0x3400 <= code <= 0x4DBF  # CJK ext A
        or 0x4E00 <= code <= 0x9FFF  # CJK unified
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x2FA1F
        or 0x0E00 <= code <= 0x0E7F  # Thai
        or 0x0E80 <= code <= 0x0EFF  # Lao
        or 0x1000 <= code <= 0x109F  # Myanmar
        or 0x1780 <= code <= 0x17FF  # Khmer
    )


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _split_unspaced(word: str) -> list[str]:
    """Split a word into runs: unspaced-script runs become bigrams, the rest stays a word."""
    out: list[str] = []
    run: list[str] = []
    other: list[str] = []
    for char in word:
        if _is_unspaced_script(char):
            if other:
                out.append("".join(other))
                other = []
            run.append(char)
        else:
            if run:
                out.extend(_bigrams("".join(run)))
                run = []
            other.append(char)
    if run:
        out.extend(_bigrams("".join(run)))
    if other:
        out.append("".join(other))
    return out


def _camel_parts(word: str) -> list[str]:
    """Split camelCase / PascalCase / HTTPServer-style words (Unicode-aware); digits stay with their letters."""
    cuts = [0]
    for i in range(1, len(word)):
        prev, cur = word[i - 1], word[i]
        nxt = word[i + 1] if i + 1 < len(word) else ""
        if (prev.islower() or prev.isdigit()) and cur.isupper():
            cuts.append(i)
        elif prev.isupper() and cur.isupper() and nxt.islower():
            cuts.append(i)
    cuts.append(len(word))
    return [word[a:b] for a, b in zip(cuts, cuts[1:], strict=False) if a < b]


def _emit(term: str, out: list[str]) -> None:
    if 0 < len(term) <= MAX_TERM_CHARS:
        out.append(term)


def tokenize(text: str) -> list[str]:
    """Return the terms of ``text`` in order, with repeats (callers count term frequency)."""
    return list(
        chain.from_iterable(map(_chunks.__getitem__, _CHUNK.findall(unicodedata.normalize("NFKC", text))))
    )


def term_counts(text: str) -> tuple[dict[str, int], int]:
    """Return the frequency of each term of ``text`` (first-seen order, as ``Counter(tokenize(text))``) and the
    number of terms with repeats.

    No chunk spans whitespace (neither word characters nor connectors are spaces), so the text is split on it in C
    and each distinct whitespace-separated word is expanded once (memoised in ``_words``); the terms, with repeats
    and in text order, are counted in C. A term's first occurrence lies in the first occurrence of its word, so the
    order is ``tokenize``'s."""
    counts = Counter(
        chain.from_iterable(map(_words.__getitem__, unicodedata.normalize("NFKC", text).split()))
    )
    return counts, sum(counts.values())


def _chunk_terms(chunk: str) -> tuple[str, ...]:
    out: list[str] = []
    if chunk.isascii():
        _tokenize_ascii(chunk, out)
    else:
        _tokenize_unicode(chunk, out)
    return tuple(out)


def _word_terms(word: str) -> tuple[str, ...]:
    """A whitespace-separated word's terms in order: its chunks' terms joined."""
    return tuple(chain.from_iterable(map(_chunks.__getitem__, _CHUNK.findall(word))))


# Agent transcripts repeat the same words and identifiers endlessly: the terms of a chunk, and of a word, are
# memoised (a bounded number; long chunks and words, hashes and blobs, rarely repeat and are not kept).
_MEMO_ENTRIES = 1 << 18
_MEMO_CHARS = 96
_chunks = Memo(_chunk_terms, entries=_MEMO_ENTRIES, longest=_MEMO_CHARS)
_words = Memo(_word_terms, entries=_MEMO_ENTRIES, longest=_MEMO_CHARS)


def _tokenize_unicode(chunk: str, out: list[str]) -> None:
    parts = _PART.findall(chunk)
    if len(parts) > 1 and not any(_is_unspaced_script(c) for c in chunk):
        _emit(chunk.lower(), out)
    for part in parts:
        for piece in _split_unspaced(part):
            sub = _camel_parts(piece) if not _is_unspaced_script(piece[0]) else [piece]
            _emit(piece.lower(), out)
            if len(sub) > 1:
                for s in sub:
                    _emit(s.lower(), out)


# Fast path for ASCII chunks (the bulk of agent transcripts); the same terms as the general path, in the same order.
_ASCII_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]*[a-z0-9]+|[A-Z]+")


def _tokenize_ascii(chunk: str, out: list[str]) -> None:
    append = out.append
    if chunk.isalnum():  # one part, no connectors
        lower = chunk.lower()
        if len(chunk) <= MAX_TERM_CHARS:
            append(lower)
        if lower != chunk:
            sub = _ASCII_CAMEL.findall(chunk)
            if len(sub) > 1:
                for s in sub:
                    if len(s) <= MAX_TERM_CHARS:
                        append(s.lower())
        return
    parts = _PART.findall(chunk)
    if len(parts) > 1:
        _emit(chunk.lower(), out)
    for part in parts:
        lower = part.lower()
        if len(part) <= MAX_TERM_CHARS:
            append(lower)
        if lower != part:
            sub = _ASCII_CAMEL.findall(part)
            if len(sub) > 1:
                for s in sub:
                    if len(s) <= MAX_TERM_CHARS:
                        append(s.lower())


def query_terms(text: str, limit: int = 32) -> list[str]:
    """Return the distinct terms of a query in first-seen order (at most ``limit``)."""
    seen: dict[str, None] = {}
    for term in tokenize(text):
        seen.setdefault(term, None)
        if len(seen) >= limit:
            break
    return list(seen)
