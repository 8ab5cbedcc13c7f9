-- ClickHouse looks for replaced parts to remove every `cleanup_delay_period` seconds (30, plus up to 10 at random,
-- backing off to 300 while there is nothing to remove), so a forget or a rewritten trace's old bytes outlived
-- `old_parts_lifetime` (10 s, migration 013) by up to half a minute (measured: 37 s from a delete to the last old
-- part gone). Looking every 1-2 s, never backing off past 5, they are gone 12 s after it; the look is a listing of
-- the table's parts in memory. ClickHouse reads these settings when it attaches a table: they apply from the next
-- time the store is opened (every `moraine forget`, `ingest` or daemon start after this migration's).
ALTER TABLE {db}.events MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.turns MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.sessions MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.postings MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.touches MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.vectors MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.checkpoints MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.ingest_errors MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
