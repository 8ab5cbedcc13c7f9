-- Hybrid ranking reads vectors by key: a message's neighbours (moraine/semantic/vectors.py, similarities_in) and the
-- rows the HNSW index points at. At the default granularity a granule holds up to 8,192 vectors (6 MB), so each read
-- decoded whole granules; with 256-row granules, measured on a 1,000,000-record store (189,311 vectors, 3-term
-- global hybrid searches, old and new table alternating): the neighbourhood read 19.5 -> 7.3 ms p50, the search p95
-- 120-131 -> 103-108 ms. (The HNSW search itself costs by the number of parts, not by their granularity.)
-- MergeTree cannot change granularity in place, so the table is copied and swapped atomically (re-running after a
-- crash starts the copy again). The copy skips the HNSW index, which would hold the migration for minutes on a large
-- table (~3 CPU-s per 1,000 vectors); it is rebuilt afterwards by a background mutation, and until then
-- nearest-neighbour searches scan the vectors exactly (slower, same or better results).
DROP TABLE IF EXISTS {db}.vectors_rebuild
;
CREATE TABLE {db}.vectors_rebuild AS {db}.vectors
ENGINE = ReplacingMergeTree
ORDER BY (session_key, seq)
SETTINGS index_granularity = 256
;
INSERT INTO {db}.vectors_rebuild SELECT * FROM {db}.vectors SETTINGS materialize_skip_indexes_on_insert = 0
;
EXCHANGE TABLES {db}.vectors AND {db}.vectors_rebuild
;
DROP TABLE {db}.vectors_rebuild
;
ALTER TABLE {db}.vectors MATERIALIZE INDEX by_similarity SETTINGS mutations_sync = 0
