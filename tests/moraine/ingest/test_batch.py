"""Publishing a batch: postings expanded inside ClickHouse match the tokenizer, term by term."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from moraine.ingest.pipeline import ingest_paths
from moraine.terms.tokenize import tokenize
from moraine.store.client import Store
from tests.moraine.ingest.toy_adapter import ToyAdapter

TEXTS = [
    "Fix parseConfigFile in src/config/parser.py: parse_config_file() raised KeyError on HTTPServer",
    "Ошибка в Журнале: naïve café, 東京タワーの設定, emoji 🚀 and digits 42 4.2.0 v1.2.3-rc1",
    "a " * 70_000,  # a term frequency above the UInt16 range is stored as 65535
]


def _write(path: Path, texts: list[str]) -> None:
    records: list[dict[str, Any]] = [
        {
            "session": "s1",
            "type": "user_input",
            "text": text,
            "starts_turn": True,
            "ts": f"2026-01-01T00:0{i}:00Z",
        }
        for i, text in enumerate(texts)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_postings_rows_are_the_tokenizer_terms_with_their_frequencies(store: Store, tmp_path: Path) -> None:
    _write(tmp_path / "a.jsonl", TEXTS)
    summary = ingest_paths(store, [tmp_path], source="codex", harness="codex", adapter=ToyAdapter())
    assert summary.events == len(TEXTS)
    rows = store.query(f"SELECT seq, term, tf, doc_len FROM {store.table('postings')} ORDER BY seq, term")
    found: dict[int, dict[str, int]] = {}
    doc_lens: dict[int, set[int]] = {}
    for seq, term, tf, doc_len in rows:
        found.setdefault(seq, {})[term] = tf
        doc_lens.setdefault(seq, set()).add(doc_len)
    for seq, text in enumerate(TEXTS, start=1):
        terms = tokenize(text)
        expected = {term: min(tf, 65535) for term, tf in Counter(terms).items()}
        assert found[seq] == expected
        assert doc_lens[seq] == {len(terms)}
    assert found[3]["a"] == 65535
    assert "東京" in found[2] and "parseconfigfile" in found[1] and "журнале" in found[2]


def test_doc_stats_count_each_searchable_event_once_with_its_length(store: Store, tmp_path: Path) -> None:
    _write(tmp_path / "a.jsonl", TEXTS)
    ingest_paths(store, [tmp_path], source="codex", harness="codex", adapter=ToyAdapter(), batch_size=2)
    stats = store.query(f"SELECT sum(docs), sum(total_len) FROM {store.table('doc_stats')}")
    assert stats == [(len(TEXTS), sum(len(tokenize(t)) for t in TEXTS))]
    events = store.query(f"SELECT sum(doc_len) FROM {store.table('events')}")
    assert events == [(stats[0][1],)]
