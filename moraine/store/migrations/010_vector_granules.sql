-- Hybrid ranking reads vectors by key: a message's neighbours (moraine/semantic/vectors.py, similarities_in) and the
-- rows the HNSW index points at. At the default granularity a granule holds ~8,000 vectors (6 MB), so each read
-- decoded whole granules; with 256-row granules, measured on a settled 1,000,000-record store (189,311 vectors,
-- 3-term global hybrid search): the neighbourhood read 17.2 -> 6.7 ms, the nearest-neighbour read 23.6 -> 17.7 ms.
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
