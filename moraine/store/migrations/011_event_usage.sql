-- Token usage of the model call that produced an event, where the trace records it (Event.usage: Claude Code's
-- message.usage, Codex's token_count events, ...). Null where the harness does not say. Adding Nullable columns is
-- a metadata change: existing parts read them as Null without being rewritten.
ALTER TABLE {db}.events
    ADD COLUMN IF NOT EXISTS usage_input Nullable(UInt64),
    ADD COLUMN IF NOT EXISTS usage_output Nullable(UInt64),
    ADD COLUMN IF NOT EXISTS usage_cache_read Nullable(UInt64),
    ADD COLUMN IF NOT EXISTS usage_cache_write Nullable(UInt64),
    ADD COLUMN IF NOT EXISTS usage_reasoning Nullable(UInt64)
