"""Planted needles: made-up terms put into known events, so relevance and latency runs have known answers."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from tools.corpus.plan import SessionPlan, ToolStep, TurnPlan
from tools.corpus.vocab import Vocabulary, needle_word

__all__ = ["Needle", "NeedleKind", "Placement", "make_needles", "plant"]

NeedleKind = Literal[
    "user_rare", "assistant_ident", "tool_arg", "tool_output", "multi", "unicode", "cjk", "file_path"
]
KINDS: tuple[NeedleKind, ...] = (
    "user_rare", "assistant_ident", "tool_arg", "tool_output", "multi", "unicode", "cjk", "file_path",
)  # fmt: skip
_CYRILLIC = "ба ве ги до жу за ки ло ми ну па ро су та фе хи цо чу ша щи ю я".split()
_CJK = "データ移行索引検索会話履歴設定解析失敗修正構成分散圧縮遅延測定"


@dataclass(slots=True)
class Needle:
    """A query with a known answer: the events (file + line) that hold its terms."""

    id: str
    kind: NeedleKind
    query: str
    event_type: str  # the event type the answer has
    event_types: list[str] | None  # what search_sessions must be asked for (None = the defaults)
    terms: list[str]
    decoy_term: str | None = None  # multi: a term also planted alone in decoy events
    locations: list[dict[str, Any]] = field(default_factory=list)
    decoys: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "query": self.query,
            "event_type": self.event_type,
            "event_types": self.event_types,
            "terms": self.terms,
            "locations": self.locations,
            "decoys": self.decoys,
        }


@dataclass(frozen=True, slots=True)
class Placement:
    """One planting: needle ``needle`` (or a decoy of it) goes into the next turn written."""

    needle: Needle
    decoy: bool = False


def _cyrillic(rng: random.Random) -> str:
    return "жз" + "".join(rng.choice(_CYRILLIC) for _ in range(4))


def _cjk(rng: random.Random) -> str:
    start = rng.randrange(0, len(_CJK) - 5)
    return "".join(rng.sample(_CJK[start : start + 6], 4)) + "\u6f2c"  # a character found nowhere else


def make_needles(rng: random.Random, per_kind: int) -> tuple[list[Needle], list[Placement]]:
    """Return the needles and the shuffled placements that plant them (and their decoys)."""
    needles: list[Needle] = []
    placements: list[Placement] = []
    for kind in KINDS:
        for i in range(per_kind):
            nid = f"{kind}-{i + 1}"
            w = needle_word(rng)
            if kind == "user_rare":
                needle = Needle(nid, kind, w, "user_input", None, [w])
            elif kind == "assistant_ident":
                ident = w[:2] + "".join(p.capitalize() for p in (w[2:6], w[6:], needle_word(rng, 2)[2:]))
                needle = Needle(nid, kind, ident, "assistant_response", None, [ident])
            elif kind == "tool_arg":
                ident = f"{w}_{needle_word(rng, 2)[2:]}"
                needle = Needle(nid, kind, ident, "tool_call", ["tool_call"], [ident])
            elif kind == "tool_output":
                needle = Needle(nid, kind, w, "tool_response", ["tool_response"], [w])
            elif kind == "multi":
                w2, w3 = needle_word(rng), needle_word(rng)
                needle = Needle(nid, kind, f"{w} {w2} {w3}", "user_input", None, [w, w2, w3], decoy_term=w)
            elif kind == "unicode":
                word = _cyrillic(rng)
                needle = Needle(nid, kind, word, "user_input", None, [word])
            elif kind == "cjk":
                word = _cjk(rng)
                needle = Needle(nid, kind, word, "user_input", None, [word])
            else:
                path = f"src/{w}/{needle_word(rng, 2)[2:]}_handler.py"
                needle = Needle(nid, kind, path, "tool_call", ["tool_call"], [path])
            needles.append(needle)
            copies = rng.randint(3, 5) if kind == "file_path" else 1
            placements.extend(Placement(needle) for _ in range(copies))
            if kind == "multi":
                placements.extend(Placement(needle, decoy=True) for _ in range(4))
    rng.shuffle(placements)
    return needles, placements


def _insert(rng: random.Random, text: str, words: str) -> str:
    parts = text.split(" ")
    at = rng.randint(0, len(parts))
    return " ".join([*parts[:at], words, *parts[at:]])


def plant(
    rng: random.Random, vocab: Vocabulary, placement: Placement, turn: TurnPlan, session: SessionPlan
) -> None:
    """Change ``turn`` so it carries the placement's needle; the writers mark the lines that hold it."""
    needle = placement.needle
    tag = f"{needle.id}#decoy" if placement.decoy else needle.id
    kind = needle.kind
    if placement.decoy:
        turn.user_text = _insert(rng, turn.user_text, needle.decoy_term or "")
        turn.user_needle = tag
    elif kind in ("user_rare", "multi", "unicode", "cjk"):
        turn.user_text = _insert(rng, turn.user_text, " ".join(needle.terms))
        turn.user_needle = tag
    elif kind == "assistant_ident":
        turn.ending = "complete"
        turn.final_text = _insert(rng, turn.final_text or vocab.text(rng, 20, 80), f"`{needle.query}`")
        turn.final_needle = tag
    elif kind == "tool_arg":
        step = ToolStep(
            "shell", None, f"pytest -q -k {needle.query} tests/", vocab.lines(rng, vocab.log_lines, 1, 20)
        )
        step.needle = tag
        turn.steps.insert(rng.randint(0, len(turn.steps)), step)
    elif kind == "tool_output":
        lines = vocab.lines(rng, vocab.log_lines, 150, 400).split("\n")
        lines.insert(rng.randint(0, len(lines)), f"WARN {needle.query} exceeded retry budget")
        step = ToolStep(
            "shell", None, f"cargo test -p {session.project.name}", "\n".join(lines), exit_code=101
        )
        step.output_needle = tag
        turn.steps.insert(rng.randint(0, len(turn.steps)), step)
    else:
        path = f"{session.cwd}/{needle.query}" if rng.random() < 0.5 else needle.query
        if rng.random() < 0.5:
            step = ToolStep("read", path, None, vocab.lines(rng, vocab.code_lines, 5, 60))
        else:
            step = ToolStep(
                "edit", path, None, "The file has been updated.", old_text="pass", new_text="return None"
            )
        step.needle = tag
        if step.kind == "edit" or session.harness == "claude-code":
            step.output_needle = tag  # the result echoes the path (apply_patch summary, toolUseResult)
        turn.steps.insert(rng.randint(0, len(turn.steps)), step)
