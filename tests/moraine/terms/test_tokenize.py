"""The shared tokenizer: identifier splitting, Unicode, and the memoised chunk path giving the same terms."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from moraine.terms import tokenize as tk


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("parseConfigFile", ["parseconfigfile", "parse", "config", "file"]),
        ("parse_config_file", ["parse_config_file", "parse", "config", "file"]),
        ("src/config/parser.py", ["src/config/parser.py", "src", "config", "parser", "py"]),
        ("HTTPServer ok", ["httpserver", "http", "server", "ok"]),
        ("Überprüfung läuft", ["überprüfung", "läuft"]),
        ("東京タワー", ["東京", "京タ", "タワ", "ワー"]),
        ("ﬁle", ["file"]),  # NFKC folds the ligature
    ],
)
def test_documented_examples(text: str, terms: list[str]) -> None:
    assert tk.tokenize(text) == terms


def test_overlong_terms_are_dropped_but_their_parts_kept() -> None:
    long_word = "a" * 70 + "Bcd"
    assert tk.tokenize(long_word) == ["bcd"]


def test_the_memoised_chunks_give_the_same_terms_cold_and_warm() -> None:
    text = "retryBackoff retry_backoff retryBackoff src/retry.py " * 3 + "x" * 200 + " 東京タワー 東京"
    tk._chunks.clear()
    cold = tk.tokenize(text)
    warm = tk.tokenize(text)
    assert cold == warm
    counts = Counter(cold)
    assert counts["retrybackoff"] == 6 and counts["retry"] == 12
    assert ("x" * 200) not in tk._chunks  # long chunks are not memoised


def test_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tk._chunks, "entries", 4)
    tk._chunks.clear()
    tk.tokenize("alpha beta gamma delta epsilon zeta")
    assert 0 < len(tk._chunks) <= 4
    assert tk.tokenize("alpha beta") == ["alpha", "beta"]


def test_query_terms_are_distinct_and_capped() -> None:
    assert tk.query_terms("fooBar foo bar fooBar") == ["foobar", "foo", "bar"]
    assert len(tk.query_terms(" ".join(f"w{i}" for i in range(100)), limit=5)) == 5


def _mixed_texts() -> list[str]:
    """Texts with every kind of separator the word split must agree with the chunk regex on."""
    rng = random.Random(35)
    alphabet = list("aZ9_./\\:@#$-") + ["東", "京", "タ", "ก", "é", "ß", "Ⅻ", "ﬁ"]
    spaces = [" ", "\t", "\n", "\r\n", "\u00a0", "\u2028", "\u3000", "\x1c", "\x85", ", ", "(", '"']
    texts = [
        "parseConfigFile src/config/parser.py parseConfigFile. -x --flag=a.b ./run.sh\u00a0HTTPServer 東京タワー",
        "a.  b :c: @d# $e$ -- f-g-- h\\i\\ j\u2028k\u3000l ﬁle Ⅻ",
    ]
    for _ in range(300):
        parts = []
        for _ in range(rng.randint(1, 30)):
            parts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))))
            parts.append(rng.choice(spaces))
        texts.append("".join(parts))
    return texts


def test_term_counts_are_the_tokenizers_terms_counted_in_first_seen_order() -> None:
    for text in _mixed_texts():
        tk._words.clear()
        terms = tk.tokenize(text)
        for _ in range(2):  # cold, then from the word memo
            counts, total = tk.term_counts(text)
            assert list(counts.items()) == list(Counter(terms).items()), text
            assert total == len(terms)
