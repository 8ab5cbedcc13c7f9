"""Score fusion: agreement wins, a clear lexical winner stays first, ties go to the lexical rank, unvectorized
types keep their place."""

from __future__ import annotations

from moraine.semantic.fusion import Candidate, fuse
from moraine.store.reads.scored import Scored

W = 0.5  # the default vector weight


def _c(seq: int, score: float, vectorized: bool = True) -> Candidate:
    return Candidate(1, seq, score, vectorized)


def _v(seq: int, similarity: float) -> Scored:
    return Scored(1, seq, similarity)


def _order(fused: list[Scored]) -> list[int]:
    return [row.seq for row in fused]


def test_an_event_both_rankers_like_beats_one_only_the_lexical_ranker_puts_first() -> None:
    fused = fuse([_c(1, 1.0), _c(2, 0.9)], [_v(2, 0.9), _v(3, 0.5)], limit=10, vector_weight=W)
    assert _order(fused)[:2] == [2, 1]


def test_a_clear_lexical_winner_stays_ahead_of_a_candidate_that_is_only_similar() -> None:
    # By ranks the two would be close (first lexically vs second lexically and first by vector); by scores the
    # lexical winner's lead counts.
    fused = fuse([_c(1, 1.0), _c(2, 0.2)], [_v(2, 0.9), _v(4, 0.1)], limit=10, vector_weight=W)
    assert _order(fused)[:2] == [1, 2]


def test_mirror_image_scores_tie_and_the_lexical_rank_breaks_the_tie() -> None:
    fused = fuse([_c(1, 1.0), _c(2, 0.5)], [_v(2, 0.9), _v(1, 0.7), _v(3, 0.5)], limit=10, vector_weight=1.0)
    assert _order(fused)[:2] == [1, 2]
    assert fused[0].score > fused[1].score  # strictly: the contract orders by score


def test_vector_only_candidates_are_added_after_the_agreeing_ones() -> None:
    fused = fuse([_c(1, 1.0)], [_v(1, 0.9), _v(9, 0.8), _v(7, 0.1)], limit=10, vector_weight=W)
    assert _order(fused) == [1, 9, 7]


def test_types_without_vectors_count_their_lexical_score_for_both_so_the_first_stays_first() -> None:
    lexical = [_c(1, 1.0, vectorized=False), _c(2, 0.8), _c(3, 0.5, vectorized=False)]
    fused = fuse(lexical, [_v(2, 0.9), _v(8, 0.2)], limit=10, vector_weight=W)
    assert _order(fused)[:3] == [
        1,
        2,
        3,
    ]  # a tool output ranked first lexically is not demoted by the vector list


def test_fusion_returns_at_most_limit_candidates_with_descending_scores_in_0_1() -> None:
    lexical = [_c(n, 30.0 - n) for n in range(1, 30)]
    fused = fuse(lexical, [_v(n, 0.9 - n / 100) for n in range(40, 60)], limit=5, vector_weight=W)
    assert len(fused) == 5
    scores = [row.score for row in fused]
    assert scores == sorted(scores, reverse=True) and 0.0 < scores[-1] and scores[0] <= 1.0


def test_a_lower_vector_weight_keeps_a_close_lexical_winner_first() -> None:
    lexical, vector = [_c(1, 1.0), _c(2, 0.9), _c(3, 0.8)], [_v(3, 0.9), _v(5, 0.3)]
    assert _order(fuse(lexical, vector, limit=10, vector_weight=1.0))[0] == 3
    assert _order(fuse(lexical, vector, limit=10, vector_weight=0.1))[0] == 1
