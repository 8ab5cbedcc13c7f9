-- Semantic recall: an HNSW index on the vectors (ClickHouse vector_similarity) so a nearest-neighbour search reads
-- a few granules instead of scanning every vector; a search uses it when it orders by
-- cosineDistance(vector, reference) ASC LIMIT k. Built per part at insert and merge time (the vectorizer's cost).
ALTER TABLE {db}.vectors ADD INDEX IF NOT EXISTS by_similarity vector TYPE vector_similarity('hnsw', 'cosineDistance', 384)
;
ALTER TABLE {db}.vectors MATERIALIZE INDEX by_similarity
