-- Postings arrive one row per event (its distinct terms joined by '\n', their frequencies in the same order) in a
-- Null table; the materialized view below expands them into one postings row per term inside ClickHouse, as part
-- of the same insert. Ingest writes far fewer, smaller rows that way; readers still see only {db}.postings.
-- A term never holds '\n' (terms are word characters and the connectors of moraine.search.tokenize).

CREATE TABLE IF NOT EXISTS {db}.postings_in
(
    terms String,
    tfs Array(UInt32),
    session_key UInt64,
    seq UInt32,
    turn_seq UInt32,
    doc_len UInt32,
    type LowCardinality(String),
    harness LowCardinality(String),
    source LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC')),
    stream_id UInt64,
    source_offset UInt64
)
ENGINE = Null
;
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.postings_in_expand TO {db}.postings AS
SELECT
    term,
    session_key,
    seq,
    turn_seq,
    toUInt16(least(tf, 65535)) AS tf,
    doc_len,
    type,
    harness,
    source,
    timestamp,
    stream_id,
    source_offset
FROM {db}.postings_in
ARRAY JOIN splitByChar('\n', terms) AS term, tfs AS tf
