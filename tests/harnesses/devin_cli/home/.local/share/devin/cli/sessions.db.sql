CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    working_directory TEXT,
    model TEXT,
    created_at INTEGER,
    last_activity_at INTEGER,
    hidden INTEGER DEFAULT 0
);
CREATE TABLE message_nodes (
    row_id INTEGER PRIMARY KEY,
    session_id TEXT,
    node_id INTEGER,
    parent_node_id INTEGER,
    chat_message TEXT,
    created_at INTEGER
);
INSERT INTO sessions VALUES ('d3v1n-5e55-4b2a-8f00-c0ffee000042', 'Weather station rain gauge', '/home/dev/projects/weatherstation', 'claude-opus-4-1', 1760954400, 1760954520, 0);
INSERT INTO sessions VALUES ('d3v1n-0a0b-4c0d-9e0f-bee5000000a1', 'Bee counter calibration', '/home/dev/projects/beecounter', 'swe-1.5', 1760870000, 1760870100, 0);
INSERT INTO sessions VALUES ('d3v1n-hidden-0000-0000-000000000000', 'Scratch', '/tmp', 'swe-1.5', 1760870000, 1760870000, 1);
INSERT INTO message_nodes (session_id, node_id, parent_node_id, chat_message, created_at) VALUES
('d3v1n-5e55-4b2a-8f00-c0ffee000042', 1, NULL, '{"role": "user", "content": "read from the transcript instead"}', 1760954404),
('d3v1n-0a0b-4c0d-9e0f-bee5000000a1', 1, NULL, '{"role": "user", "content": "The bee counter counts each bee twice at the gate."}', 1760870010),
('d3v1n-0a0b-4c0d-9e0f-bee5000000a1', 2, 1, '{"role": "agent", "content": "", "thinking": "Two beam sensors per lane, both counted.", "tool_calls": [{"id": "call_n1", "type": "function", "function": {"name": "edit", "arguments": "{\"file_path\": \"/home/dev/projects/beecounter/gate.py\", \"old_string\": \"count += hits\", \"new_string\": \"count += hits // 2\"}"}}]}', 1760870030),
('d3v1n-0a0b-4c0d-9e0f-bee5000000a1', 3, 2, '{"role": "tool", "tool_call_id": "call_n1", "content": "Edited gate.py"}', 1760870031),
('d3v1n-0a0b-4c0d-9e0f-bee5000000a1', 4, 3, '{"role": "assistant", "content": "Each lane has two beams; the count is now halved per crossing."}', 1760870040),
('d3v1n-hidden-0000-0000-000000000000', 1, NULL, '{"role": "user", "content": "hidden scratch"}', 1760870000);
