"""The LoCoMo runner end to end on one small conversation in LoCoMo's format: transcripts, the daemon's ingest,
questions through ``moraine mcp``, a figure for every category present (no threshold)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.relevance.locomo import category_names, rank_conversation, scores
from tools.relevance.locomo_data import load_conversation

_SESSIONS = [
    ("1:56 pm on 8 May, 2023", [
        ("Ana", "I finally adopted a greyhound from the rescue shelter, her name is Pepper."),
        ("Ben", "A greyhound! Do they need a lot of running?"),
        ("Ana", "Less than you think, Pepper sleeps most of the day on the sofa."),
    ]),
    ("10:12 am on 2 June, 2023", [
        ("Ben", "I signed up for a pottery class on Thursdays at the community centre."),
        ("Ana", "Pottery sounds relaxing. What will you make first?"),
        ("Ben", "A blue glazed mug for my sister's birthday."),
    ]),
    ("7:30 pm on 20 July, 2023", [
        ("Ana", "Pepper and I hiked the coastal trail near Mendocino last weekend."),
        ("Ben", "My mug cracked in the kiln, so the birthday present is a teapot now."),
    ]),
]  # fmt: skip
_QA = [
    {"question": "What breed is the dog Ana adopted?", "evidence": ["D1:1"], "category": 4},
    {"question": "When did Ben sign up for pottery?", "evidence": ["D2:1"], "category": 2},
    {
        "question": "What happened to the mug Ben glazed for his sister?",
        "evidence": ["D2:3", "D3:2"],
        "category": 1,
    },
    {"question": "Would Ana enjoy a coastal trail?", "evidence": ["D3:1"], "category": 3},
    {"question": "What did Ana's teapot look like?", "evidence": ["D3:2"], "category": 5},
    {"question": "Which question has no evidence?", "evidence": [], "category": 4},
]


def _write(directory: Path) -> Path:
    raw: dict[str, object] = {"speaker_a": "Ana", "speaker_b": "Ben", "qa": _QA}
    for number, (date, turns) in enumerate(_SESSIONS, start=1):
        raw[f"session_{number}_date_time"] = date
        raw[f"session_{number}"] = [
            {"speaker": s, "dia_id": f"D{number}:{i}", "text": t} for i, (s, t) in enumerate(turns, start=1)
        ]
    raw["session_9_date_time"] = "1:00 pm on 1 August, 2023"  # a date without a session: LoCoMo has those
    path = directory / "conversation-1.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def test_questions_with_evidence_keep_their_gold_sessions(tmp_path: Path) -> None:
    conversation = load_conversation(_write(tmp_path))
    assert sorted(conversation.sessions) == [1, 2, 3]
    assert [sorted(q.gold) for q in conversation.questions] == [[1], [2], [2, 3], [3], [3]]
    assert sorted(conversation.questions[2].evidence) == ["D2:3", "D3:2"]
    assert conversation.turn_id(2, 2) == "D2:3" and conversation.turn_id(2, 3) is None


def test_the_runner_scores_every_category_present_through_the_mcp_server(tmp_path: Path) -> None:
    ranks = rank_conversation(_write(tmp_path), ["lexical"])
    lexical = ranks.by_method["lexical"]
    assert len(lexical) == 5
    assert [name for _, name in category_names(ranks)] == [
        "multi-hop", "temporal", "open-domain", "single-hop", "adversarial", "all",
    ]  # fmt: skip
    for category, _name in category_names(ranks):
        figure = scores(lexical, category)
        assert figure.questions >= 1 and 0.0 <= figure.hit1 <= figure.hit5 <= 1.0 and 0.0 <= figure.mrr <= 1.0
    assert lexical[0] == (4, 1)  # "greyhound"/"adopted" name only the first session
    turns = ranks.turns_by_method["lexical"]
    assert [category for category, _ in turns] == [category for category, _ in lexical]
    assert turns[0] == (4, 1)  # the adoption message itself is the first event hit
    assert all(0 <= rank <= 10 for _, rank in turns)


def test_a_replay_on_the_kept_store_gives_the_ranks_of_the_mcp_run(tmp_path: Path) -> None:
    path, out = _write(tmp_path), tmp_path / "replay.json"
    keep = Path(
        tempfile.mkdtemp(prefix="mlk", dir="/tmp")
    )  # short: the daemon's socket path must fit AF_UNIX
    try:
        through_mcp = rank_conversation(path, ["lexical"], keep)
        # In a process of its own: chDB opens one store per process, and this one may hold the test store's.
        subprocess.run(
            [sys.executable, "-m", "tools.relevance", "--locomo", str(tmp_path), "--keep", str(keep), "--replay",
             "--lexical-only", "--json", str(out)],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
    finally:
        shutil.rmtree(keep, ignore_errors=True)
    replayed = json.loads(out.read_text(encoding="utf-8"))
    assert [tuple(r) for r in replayed["ranks"]["lexical"]] == through_mcp.by_method["lexical"]
    assert [tuple(r) for r in replayed["turn_ranks"]["lexical"]] == through_mcp.turns_by_method["lexical"]
    assert through_mcp.by_method["lexical"][0] == (4, 1) and through_mcp.turns_by_method["lexical"][0] == (
        4,
        1,
    )
