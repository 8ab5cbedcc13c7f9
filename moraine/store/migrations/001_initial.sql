-- Moraine store schema, version 1. Statements are separated by lines holding only ';'.
-- {db} is replaced by the configured database name (an identifier validated by the migration runner).
-- Keys: session_key is ids.session_key(source, harness session id); seq is the 1-based position of an event in its
-- session; turn_seq is the 1-based turn; ordinal is the 1-based position of an event in its turn.
-- Events and postings are append-only per (session, seq); turns and sessions are re-emitted with a higher version
-- whenever a batch changes them (read them with FINAL, always filtered by key prefix).
-- Publish order inside one batch: events, touches, turns, sessions, postings (postings last, so every visible
-- posting's event, turn and session rows exist).

CREATE TABLE IF NOT EXISTS {db}.events
(
    session_key UInt64,
    seq UInt32,
    turn_seq UInt32,
    ordinal UInt32,
    type LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC')),
    terminal UInt8,
    terminal_kind LowCardinality(String),
    is_final_answer UInt8,
    content_format LowCardinality(String),
    text String CODEC(ZSTD(3)),
    summary String,
    summary_truncated UInt8,
    tool_name Nullable(String),
    tool_call_id Nullable(String),
    arguments Nullable(String) CODEC(ZSTD(3)),
    exit_code Nullable(Int32),
    tool_error Nullable(UInt8),
    model Nullable(String),
    originating_model Nullable(String),
    cwd Nullable(String),
    encrypted UInt8,
    is_moraine_tool UInt8,
    sidechain UInt8,
    provenance String CODEC(ZSTD(3)),
    doc_len UInt32,
    stream_id UInt64,
    source_offset UInt64,
    source_line UInt32
)
ENGINE = MergeTree
ORDER BY (session_key, seq)
-- Reads are point lookups and short ranges by key (open, search hydration): small granules keep each from
-- decompressing thousands of neighbouring payloads.
SETTINGS index_granularity = 1024
;
CREATE TABLE IF NOT EXISTS {db}.turns
(
    session_key UInt64,
    turn_seq UInt32,
    first_seq UInt32,
    last_seq UInt32,
    event_count UInt32,
    completed UInt8,
    terminal_seq Nullable(UInt32),
    started_at Nullable(DateTime64(3, 'UTC')),
    updated_at Nullable(DateTime64(3, 'UTC')),
    user_input_seq Nullable(UInt32),
    user_input_text String,
    user_input_truncated UInt8,
    final_seq Nullable(UInt32),
    final_text String,
    final_truncated UInt8,
    tools_called Array(String),
    event_types Array(String),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (session_key, turn_seq)
SETTINGS index_granularity = 1024
;
CREATE TABLE IF NOT EXISTS {db}.sessions
(
    session_key UInt64,
    harness_session_id String,
    source LowCardinality(String),
    harness LowCardinality(String),
    title Nullable(String),
    summary Nullable(String),
    slug Nullable(String),
    first_user_message Nullable(String),
    cwd Nullable(String),
    model Nullable(String),
    project_id Nullable(String),
    parent_session_key Nullable(UInt64),
    started_at Nullable(DateTime64(3, 'UTC')),
    updated_at Nullable(DateTime64(3, 'UTC')),
    completed UInt8,
    turn_count UInt32,
    event_count UInt32,
    mode LowCardinality(String),
    generation UInt32,
    stream_id UInt64,
    source_path String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY session_key
;
-- BM25 postings: one row per (term, searchable event). Filters are denormalized so a search is one key-range read.
CREATE TABLE IF NOT EXISTS {db}.postings
(
    term String,
    session_key UInt64,
    seq UInt32,
    turn_seq UInt32,
    tf UInt16,
    doc_len UInt32,
    type LowCardinality(String),
    harness LowCardinality(String),
    source LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC')),
    stream_id UInt64,
    source_offset UInt64
)
ENGINE = MergeTree
ORDER BY (term, session_key, seq)
;
-- Per-source/type corpus statistics for BM25 (sum over rows; never updated in place).
CREATE TABLE IF NOT EXISTS {db}.doc_stats
(
    stream_id UInt64,
    source_offset UInt64,
    type LowCardinality(String),
    docs UInt64,
    total_len UInt64
)
ENGINE = MergeTree
ORDER BY (stream_id, source_offset)
;
-- One row per (file touch) extracted from a tool call (file_attention).
CREATE TABLE IF NOT EXISTS {db}.touches
(
    tail String,
    session_key UInt64,
    seq UInt32,
    turn_seq UInt32,
    path String,
    project_id String,
    worktree_root Nullable(String),
    match_kind LowCardinality(String),
    tool_name String,
    harness LowCardinality(String),
    source LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC')),
    action_preview String,
    stream_id UInt64,
    source_offset UInt64
)
ENGINE = MergeTree
ORDER BY (tail, session_key, seq)
;
-- Ingest checkpoints: one row per stream (a trace file, or a table of a SQLite source), latest version wins.
CREATE TABLE IF NOT EXISTS {db}.checkpoints
(
    stream_id UInt64,
    source LowCardinality(String),
    path String,
    file_identity String,
    offset UInt64,
    line_no UInt64,
    state String CODEC(ZSTD(3)),
    generation UInt32,
    updated_at DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY stream_id
;
CREATE TABLE IF NOT EXISTS {db}.ingest_errors
(
    at DateTime64(3, 'UTC'),
    source LowCardinality(String),
    path String,
    line_no UInt64,
    offset UInt64,
    reason LowCardinality(String),
    detail String
)
ENGINE = MergeTree
ORDER BY (at, source, path)
