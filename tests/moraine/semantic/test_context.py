"""Similarity in context: a candidate's similarity blended with its better neighbour's, within its session."""

from __future__ import annotations

import pytest

from moraine.semantic.context import in_context

SIMILARITIES = {
    (1, 3): 0.9, (1, 4): 0.2, (1, 9): 0.5,  # seq 3 sounds like the query, its neighbour does not
    (2, 10): 0.75, (2, 11): 0.85, (2, 12): 0.1,  # seq 10 answers seq 11's question; 12 is chatter
}  # fmt: skip


def test_a_message_among_unrelated_ones_loses_to_one_in_a_related_exchange() -> None:
    alone = in_context([(1, 3), (2, 10)], SIMILARITIES, 0.0, 16)
    blended = in_context([(1, 3), (2, 10)], SIMILARITIES, 0.3, 16)
    assert alone[(1, 3)] > alone[(2, 10)]
    assert blended[(2, 10)] > blended[(1, 3)]
    assert blended[(1, 3)] == pytest.approx((0.9 + 0.3 * 0.2) / 1.3)
    assert blended[(2, 10)] == pytest.approx((0.75 + 0.3 * 0.85) / 1.3)


def test_the_better_neighbour_counts_so_chatter_after_the_answer_does_not_pull_it_down() -> None:
    assert in_context([(2, 11)], SIMILARITIES, 0.3, 16)[(2, 11)] == pytest.approx((0.85 + 0.3 * 0.75) / 1.3)


def test_refs_without_a_vector_are_left_out_and_lonely_vectors_keep_their_own_similarity() -> None:
    out = in_context([(1, 5), (3, 1), (4, 7)], {**SIMILARITIES, (4, 7): 0.6}, 0.5, 16)
    assert out == {(4, 7): 0.6}


def test_a_vector_beyond_reach_is_not_a_neighbour() -> None:
    assert in_context([(1, 9)], SIMILARITIES, 0.5, 4)[(1, 9)] == 0.5
    assert in_context([(1, 9)], SIMILARITIES, 0.5, 5)[(1, 9)] == pytest.approx((0.5 + 0.5 * 0.2) / 1.5)
