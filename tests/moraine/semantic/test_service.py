"""Semantic recall in a serving process: on when installed and enabled, off by config, visible in status."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from moraine.config import Config, load_config
from moraine.semantic.hybrid import SemanticRanker
from moraine.semantic.service import semantic_state, start_semantic
from moraine.store.client import Store
from moraine.store.status import table_counts
from tests.conftest import IngestIntoStore
from tests.fixtures.relevance.corpus import write_corpus


def _config(tmp_path: Path, body: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(body, encoding="utf-8")
    return load_config(path)


def test_status_says_hybrid_ranking_is_on_when_the_model_is_installed(tmp_path: Path) -> None:
    assert semantic_state(_config(tmp_path, "")).startswith("on")


def test_the_config_key_turns_semantic_recall_off(tmp_path: Path) -> None:
    config = _config(tmp_path, "[semantic]\nenabled = false\n")
    assert "enabled = false" in semantic_state(config)
    ranker = SemanticRanker()
    assert start_semantic(config, ranker) is None
    assert ranker.current is None


def test_start_fills_the_handlers_ranker_holder_and_shutdown_empties_it(tmp_path: Path, store: Store) -> None:
    config = dataclasses.replace(
        _config(tmp_path, "[semantic]\nthreads = 1\n"),
        store_dsn=store.dsn,
        database=store.database,
    )
    ranker = SemanticRanker()
    service = start_semantic(config, ranker)
    assert service is not None
    try:
        assert service.ready.wait(120), service.failed  # the model loads in the background
        assert ranker.current is not None
    finally:
        service.shutdown()
    assert ranker.current is None


def test_status_counts_show_vectors_and_what_is_still_pending(
    store: Store, ingest_into_store: IngestIntoStore, tmp_path: Path
) -> None:
    write_corpus(tmp_path / "corpus")
    ingest_into_store([tmp_path / "corpus" / "codex"])
    counts = table_counts(store)
    assert counts["vectors"] == 0
    assert counts["vectors_pending"] > 20
