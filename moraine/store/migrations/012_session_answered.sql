-- A session whose newest turn ends on an assistant answer (its last assistant text, no tool call after it) without
-- a terminal event the harness recorded: Claude Code leaves stop_reason null, so such a turn is over only once the
-- session stays idle (moraine/store/reads/settled.py). Readers complete it then; older rows read 0 (not answered).
ALTER TABLE {db}.sessions ADD COLUMN IF NOT EXISTS answered UInt8 DEFAULT 0 AFTER completed
