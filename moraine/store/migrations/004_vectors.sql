-- Semantic recall (moraine/semantic): one embedding per user_input / assistant_response event, written by the
-- background vectorizer after the event is searchable lexically. Filters are denormalized as in postings so a
-- nearest-neighbour search is one scan with the same predicates. Replacing: a re-run after a crash between the
-- vector insert and its watermark leaves one row per key once merged (readers de-duplicate meanwhile).
CREATE TABLE IF NOT EXISTS {db}.vectors
(
    session_key UInt64,
    seq UInt32,
    turn_seq UInt32,
    type LowCardinality(String),
    harness LowCardinality(String),
    source LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC')),
    model LowCardinality(String),
    vector Array(BFloat16),
    stream_id UInt64,
    source_offset UInt64
)
ENGINE = ReplacingMergeTree
ORDER BY (session_key, seq)
;
-- The vectorizer's watermark per stream: events of the stream below ``offset`` (in ``generation``) have vectors.
CREATE TABLE IF NOT EXISTS {db}.vector_marks
(
    stream_id UInt64,
    generation UInt32,
    offset UInt64,
    model LowCardinality(String),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY stream_id
