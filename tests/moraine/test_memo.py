"""The bounded memo: a pure function's results by argument."""

from __future__ import annotations

from moraine.memo import Memo


def test_each_argument_is_computed_once_while_it_is_kept() -> None:
    calls: list[str] = []

    def shout(word: str) -> str:
        calls.append(word)
        return word.upper()

    memo = Memo(shout, entries=8)
    assert [memo("a"), memo("b"), memo("a")] == ["A", "B", "A"]
    assert calls == ["a", "b"]


def test_a_full_memo_is_emptied_before_it_takes_the_next_result() -> None:
    memo = Memo(len, entries=2)
    for word in ("one", "three", "seven"):
        assert memo(word) == len(word)
    assert memo.values == {"seven": 5}
