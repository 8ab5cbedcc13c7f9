-- Warp store (warp.sqlite): written for this project's tests, with the two tables Warp keeps its agent queries in.
CREATE TABLE agent_conversations (id INTEGER PRIMARY KEY NOT NULL, conversation_id TEXT NOT NULL,
  conversation_data TEXT NOT NULL, last_modified_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE ai_queries (id INTEGER PRIMARY KEY NOT NULL, exchange_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
  start_ts DATETIME NOT NULL, input TEXT NOT NULL, working_directory TEXT, output_status TEXT NOT NULL,
  model_id TEXT NOT NULL DEFAULT '', planning_model_id TEXT NOT NULL DEFAULT '', coding_model_id TEXT NOT NULL DEFAULT '');
INSERT INTO agent_conversations VALUES (1, 'c0ffee00-1111-4222-8333-444455556666', '{"conversation_usage_metadata":{"token_usage":[{"warp_tokens":5200,"byok_tokens":0}],"tool_usage_metadata":{"run_command_stats":{"count":2},"apply_file_diff_stats":{"count":1}}}}', '2026-12-02 18:05:00');
INSERT INTO ai_queries VALUES (1, 'ex-1', 'c0ffee00-1111-4222-8333-444455556666', '2026-12-02 18:00:00', '[{"Query":{"text":"Why does the tram schedule script print yesterday''s departures? warpmarmosetkeyword","context":[]}}]', '/home/dev/tramtimes', 'Completed', 'claude-4-sonnet', '', ''), (2, 'ex-2', 'c0ffee00-1111-4222-8333-444455556666', '2026-12-02 18:03:30', '[{"Query":{"text":"Use the local timezone instead of UTC when picking the date.","context":[]}}]', '/home/dev/tramtimes', 'Completed', 'claude-4-sonnet', '', '');
