-- Piebald store (app.db): written for this project's tests, with the tables and columns Piebald keeps.
CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT, directory TEXT);
CREATE TABLE chats (id INTEGER PRIMARY KEY, title TEXT, created_at TEXT, updated_at TEXT, message_count INTEGER,
  current_directory TEXT, worktree_path TEXT, branch_name TEXT, project_id INTEGER, is_deleted INTEGER DEFAULT 0);
CREATE TABLE messages (id INTEGER PRIMARY KEY, parent_chat_id INTEGER, parent_message_id INTEGER, enabled INTEGER,
  role TEXT, model TEXT, created_at TEXT, updated_at TEXT, input_tokens INTEGER, output_tokens INTEGER,
  reasoning_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER, status TEXT, finish_reason TEXT,
  error TEXT);
CREATE TABLE message_parts (id INTEGER PRIMARY KEY, parent_chat_message_id INTEGER, part_type TEXT, part_index INTEGER);
CREATE TABLE message_part_text (message_part_id INTEGER PRIMARY KEY, is_thinking INTEGER);
CREATE TABLE message_content_nodes (id INTEGER PRIMARY KEY, parent_text_part_id INTEGER, node_type TEXT,
  node_index INTEGER);
CREATE TABLE message_node_text (node_id INTEGER PRIMARY KEY, content TEXT);
CREATE TABLE message_part_tool_call (message_part_id INTEGER PRIMARY KEY, provider_tool_use_id TEXT, tool_name TEXT,
  tool_input TEXT, tool_result TEXT, tool_error TEXT, tool_state TEXT, sub_agent_chat_id INTEGER);
INSERT INTO projects VALUES (1, 'orchard', '/home/dev/orchard');
INSERT INTO chats VALUES (7, 'Frost alert threshold', '2026-11-20T07:00:00Z', '2026-11-20T07:04:00Z', 5, '/home/dev/orchard', NULL, 'main', 1, 0), (8, 'Deleted chat', '2026-11-19T07:00:00Z', '2026-11-19T07:00:05Z', 1, NULL, NULL, NULL, 1, 1);
INSERT INTO messages VALUES (11, 7, NULL, 1, 'user', NULL, '2026-11-20T07:00:01Z', '2026-11-20T07:00:01Z', NULL, NULL, NULL, NULL, NULL, 'complete', NULL, NULL), (12, 7, 11, 1, 'assistant', 'claude-opus-4-5', '2026-11-20T07:00:04Z', '2026-11-20T07:00:20Z', 2400, 150, 60, 2000, 0, 'complete', 'tool_use', NULL), (13, 7, 12, 1, 'assistant', 'claude-opus-4-5', '2026-11-20T07:00:30Z', '2026-11-20T07:00:40Z', 2700, 45, 0, 2300, 0, 'complete', 'end_turn', NULL), (14, 7, 12, 0, 'assistant', 'claude-opus-4-5', '2026-11-20T07:00:25Z', '2026-11-20T07:00:28Z', 2650, 20, 0, 2300, 0, 'complete', 'end_turn', NULL), (21, 8, NULL, 1, 'user', NULL, '2026-11-19T07:00:01Z', '2026-11-19T07:00:01Z', NULL, NULL, NULL, NULL, NULL, 'complete', NULL, NULL);
INSERT INTO message_parts VALUES (100, 11, 'text', 0), (101, 12, 'text', 0), (102, 12, 'tool_call', 1), (103, 12, 'tool_call', 2), (104, 13, 'text', 0), (105, 14, 'text', 0), (106, 21, 'text', 0);
INSERT INTO message_part_text VALUES (100, 0), (101, 1), (104, 0), (105, 0), (106, 0);
INSERT INTO message_content_nodes VALUES (500, 100, 'text', 0), (501, 100, 'text', 1), (502, 100, 'text', 2), (503, 101, 'text', 0), (504, 104, 'text', 0), (505, 105, 'text', 0), (506, 106, 'text', 0);
INSERT INTO message_node_text VALUES (500, 'Raise the frost alert threshold to 2 °C and '), (501, 'log each alert. '), (502, 'piebaldotterkeyword'), (503, 'The threshold lives in alerts/frost.py.'), (504, 'The threshold is now 2 °C; test_threshold still expects 0 and needs updating.'), (505, 'An earlier reply that the user regenerated.'), (506, 'deleted chat text');
INSERT INTO message_part_tool_call VALUES (102, 'toolu_f1', 'Edit', '{"file_path": "/home/dev/orchard/alerts/frost.py", "old_string": "THRESHOLD_C = 0", "new_string": "THRESHOLD_C = 2"}', 'Updated frost.py', NULL, 'completed', NULL), (103, 'toolu_f2', 'Bash', '{"command": "pytest tests/test_frost.py"}', NULL, 'Exit code 1: test_threshold expected 0', 'error', NULL);
