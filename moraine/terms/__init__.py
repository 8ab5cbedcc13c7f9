"""Text to terms, shared by ingest (postings) and queries: the tokenizer, the query parse (terms, forms, a named
date, the question's form) and the marks of a hit."""

__all__: list[str] = []
