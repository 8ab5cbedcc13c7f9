"""Read-side fixtures: the small hand-written corpus, built once per module."""

from fixtures.corpus.fixtures import small_store

__all__ = ["small_store"]
