"""``tools.hooks``: the sweep's three shares, computed from explained questions."""

from __future__ import annotations

from tools.hooks.locomo import ADVERSARIAL, Asked, Gate, sweep


def _asked(category: int, evidence: set[str], turns: list[str | None], coverage: float) -> Asked:
    return Asked(category, frozenset(evidence), turns, coverage, 0.5)


def test_the_sweep_counts_evidence_silence_and_adversarial_injections() -> None:
    asked = [
        _asked(1, {"D1:1"}, ["D1:1", "D2:1"], 1.0),  # injected, evidence first
        _asked(4, {"D3:2"}, ["D2:1", "D2:2", "D3:2"], 0.9),  # injected, evidence third
        _asked(2, {"D1:4"}, ["D1:1"], 0.2),  # below a 0.5 gate: nothing
        _asked(ADVERSARIAL, {"D1:1"}, ["D1:1"], 0.6),  # injected although unanswerable
        _asked(ADVERSARIAL, {"D1:1"}, ["D1:1"], 0.1),
    ]
    (_, one), (_, three) = sweep(asked, [Gate(0.5, 0.0, 1), Gate(0.5, 0.0, 3)])
    assert one["answerable"] == 3 and one["adversarial"] == 2
    assert one["evidence_in_injections"] == 0.5 and three["evidence_in_injections"] == 1.0
    assert round(one["answerable_without"], 3) == round(1 / 3, 3)
    assert one["adversarial_injected"] == 0.5
