"""The bounded memo: a pure function's results by argument."""

from __future__ import annotations

from moraine.memo import Memo


def test_each_argument_is_computed_once_while_it_is_kept() -> None:
    calls: list[str] = []

    def shout(word: str) -> str:
        calls.append(word)
        return word.upper()

    memo = Memo(shout, entries=8, longest=16)
    assert [memo["a"], memo["b"], memo["a"]] == ["A", "B", "A"]
    assert calls == ["a", "b"]


def test_a_full_memo_is_emptied_before_it_takes_the_next_result() -> None:
    memo = Memo(len, entries=2, longest=16)
    for word in ("one", "three", "seven"):
        assert memo[word] == len(word)
    assert memo == {"seven": 5}


def test_a_string_longer_than_longest_is_computed_each_time_and_not_kept() -> None:
    calls: list[str] = []

    def size(text: str) -> int:
        calls.append(text)
        return len(text)

    memo = Memo(size, entries=8, longest=4)
    assert [memo["long text"], memo["long text"], memo["tiny"], memo["tiny"]] == [9, 9, 4, 4]
    assert calls == ["long text", "long text", "tiny"]
    assert memo == {"tiny": 4}
    assert [memo("long text"), memo("tiny"), memo("tiny")] == [9, 4, 4]  # called: the same results and memo
    assert calls == ["long text", "long text", "tiny", "long text"]
    assert memo == {"tiny": 4}
