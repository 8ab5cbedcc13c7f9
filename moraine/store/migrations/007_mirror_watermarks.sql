-- Mirroring (moraine/mirror): per backend and session, how far the session has been copied to that backend.
-- A session is mirrored up to seq (of generation); a newer generation (a rewritten trace) is copied again from 0.
CREATE TABLE IF NOT EXISTS {db}.mirror_watermarks
(
    backend LowCardinality(String),
    session_key UInt64,
    generation UInt32,
    seq UInt32,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (backend, session_key)
