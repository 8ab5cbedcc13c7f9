-- Migration 014 shortened ClickHouse's look for replaced parts on the tables with text, but `moraine forget` also
-- rewrites the search statistics (`doc_stats`) and mirror watermarks of what it removes, and waits until every
-- replaced part is gone: a `doc_stats` part kept the default period (30 s and more), so a forget took 35-45 s
-- instead of the 12-14 s of `old_parts_lifetime` (10 s, migration 013) plus a look. Same settings as 014; they
-- apply from the next time the store is opened.
ALTER TABLE {db}.doc_stats MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
;
ALTER TABLE {db}.mirror_watermarks MODIFY SETTING cleanup_delay_period = 1, cleanup_delay_period_random_add = 1, max_cleanup_delay_period = 5
