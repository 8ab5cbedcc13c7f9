"""Issue 33: the ranking weights are written once (``moraine.ranking``); every default reads them from there."""

from __future__ import annotations

import re
from pathlib import Path

from moraine import ranking
from moraine.config import Config
from moraine.handler_api import Settings
from moraine.semantic.hybrid import SemanticSettings
from moraine.store.reads.search import Bm25

ROOT = Path(__file__).resolve().parents[2]


def test_every_ranking_default_is_the_one_in_moraine_ranking() -> None:
    bm25, semantic, settings = Bm25(), SemanticSettings(), Settings()
    config = Config(home=ROOT, store_dsn="chdb://unused")
    assert bm25.k1 == settings.bm25_k1 == config.bm25_k1 == ranking.BM25_K1 == 1.2
    assert bm25.b == settings.bm25_b == config.bm25_b == ranking.BM25_B == 0.75
    assert (bm25.session_weight, bm25.session_depth, bm25.form_weight, bm25.time_weight) == (
        ranking.SESSION_WEIGHT,
        ranking.SESSION_DEPTH,
        ranking.FORM_WEIGHT,
        ranking.TIME_WEIGHT,
    )
    assert (semantic.vector_weight, semantic.depth, semantic.context, semantic.min_words) == (
        ranking.VECTOR_WEIGHT,
        ranking.FUSION_DEPTH,
        ranking.CONTEXT_WEIGHT,
        ranking.FUSION_MIN_WORDS,
    )


def test_no_module_but_moraine_ranking_writes_bm25s_k1_or_b() -> None:
    literal = re.compile(r"\b(k1|bm25_k1|b|bm25_b)\b[^=\n]*[=,(]\s*(1\.2|0\.75)\b")
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("moraine", "handlers")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.name != "ranking.py" and literal.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
