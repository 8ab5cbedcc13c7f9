"""Semantic recall: embeddings of user and assistant messages, vector search in ClickHouse, fusion with BM25."""
