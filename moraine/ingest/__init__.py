"""Ingest: trace files -> adapters -> pipeline -> store."""

__all__: list[str] = []
