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
