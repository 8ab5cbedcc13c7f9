-- Sessions forgotten on purpose (`moraine forget`): ingest consults this table and never indexes them again, not
-- even lines appended to their trace files later. Only the key and where it came from are kept, never content.
CREATE TABLE IF NOT EXISTS {db}.forgotten
(
    session_key UInt64,
    source LowCardinality(String),
    harness LowCardinality(String),
    forgotten_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY session_key
;
-- Removing rows (forget, a rewritten trace file) rewrites the parts that held them; the old parts stay on disk
-- until ClickHouse's cleanup removes them `old_parts_lifetime` seconds later (480 by default: a rewritten trace's
-- scrubbed bytes were still readable in a part four minutes on). 10 s: a part replaced by a merge is kept a little
-- while in case the new one was not yet written out when the machine stopped; the index is rebuilt from the traces.
ALTER TABLE {db}.events MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.turns MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.sessions MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.postings MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.touches MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.vectors MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.checkpoints MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.ingest_errors MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.mirror_watermarks MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.doc_stats MODIFY SETTING old_parts_lifetime = 10
;
ALTER TABLE {db}.forgotten MODIFY SETTING old_parts_lifetime = 10
