"""Search-side text processing shared by ingest (postings) and queries."""

__all__: list[str] = []
