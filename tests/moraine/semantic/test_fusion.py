"""Reciprocal rank fusion: agreement wins, ties go to the lexical rank, unvectorized types keep their place."""

from __future__ import annotations

from moraine.semantic.fusion import Candidate, fuse


def _c(seq: int, vectorized: bool = True) -> Candidate:
    return Candidate(1, seq, vectorized)


def test_an_event_both_rankers_like_beats_one_only_the_lexical_ranker_puts_first() -> None:
    fused = fuse([_c(1), _c(2)], [(1, 2), (1, 3)], k=60, limit=10)
    assert [seq for _, seq, _ in fused][:2] == [2, 1]


def test_mirror_image_ranks_tie_on_rrf_and_the_lexical_rank_breaks_the_tie() -> None:
    fused = fuse([_c(1), _c(2)], [(1, 2), (1, 1)], k=60, limit=10)
    assert [seq for _, seq, _ in fused] == [1, 2]
    assert fused[0][2] > fused[1][2]  # strictly: the contract orders by score


def test_vector_only_candidates_are_added_after_the_agreeing_ones() -> None:
    fused = fuse([_c(1)], [(1, 1), (1, 9)], k=60, limit=10)
    assert [seq for _, seq, _ in fused] == [1, 9]


def test_types_without_vectors_count_their_lexical_rank_twice_so_the_first_stays_first() -> None:
    lexical = [_c(1, vectorized=False), _c(2), _c(3, vectorized=False)]
    fused = fuse(lexical, [(1, 2)], k=60, limit=10)
    order = [seq for _, seq, _ in fused]
    assert order == [1, 2, 3]  # a tool output ranked first lexically is not demoted by the vector list


def test_fusion_returns_at_most_limit_candidates_with_descending_scores() -> None:
    fused = fuse([_c(n) for n in range(1, 30)], [(1, n) for n in range(40, 60)], k=10, limit=5)
    assert len(fused) == 5
    scores = [score for _, _, score in fused]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0


def test_a_lower_vector_weight_keeps_a_clear_lexical_winner_first() -> None:
    lexical, vector = [_c(1), _c(2), _c(3)], [(1, 3)]
    assert [seq for _, seq, _ in fuse(lexical, vector, k=10, limit=10)][0] == 3
    assert [seq for _, seq, _ in fuse(lexical, vector, k=10, limit=10, vector_weight=0.1)][0] == 1
