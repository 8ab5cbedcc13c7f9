CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL);
INSERT INTO alembic_version VALUES ('7c2e1f0a9b3d');
CREATE TABLE conversations (
    workspace_id BIGINT NOT NULL DEFAULT 0,
    id VARCHAR(64), created_at INTEGER, updated_at INTEGER, title TEXT,
    parent_conversation_id VARCHAR(64), root_conversation_id VARCHAR(64),
    next_position INTEGER, PRIMARY KEY (workspace_id, id)
);
CREATE TABLE omnigent_conversation_metadata (
    workspace_id BIGINT NOT NULL DEFAULT 0, id VARCHAR(64),
    kind SMALLINT, sub_agent_name VARCHAR(128),
    external_session_id VARCHAR(128), session_usage TEXT,
    workspace VARCHAR(2048), git_branch VARCHAR(255),
    archived BOOLEAN DEFAULT 0, PRIMARY KEY (workspace_id, id)
);
CREATE TABLE agent_configuration (
    workspace_id BIGINT NOT NULL DEFAULT 0, conversation_id VARCHAR(64),
    agent_id VARCHAR(64), reasoning_effort VARCHAR(32),
    model_override VARCHAR(128), harness_override VARCHAR(64),
    PRIMARY KEY (workspace_id, conversation_id)
);
CREATE TABLE conversation_items (
    workspace_id BIGINT NOT NULL DEFAULT 0,
    conversation_id VARCHAR(64) NOT NULL, id VARCHAR(64) NOT NULL,
    position INTEGER NOT NULL, type SMALLINT NOT NULL, status SMALLINT DEFAULT 1,
    data TEXT NOT NULL, search_text TEXT NOT NULL,
    PRIMARY KEY (workspace_id, conversation_id, id)
);
CREATE INDEX ix_conversation_items_conversation_id_position ON conversation_items(workspace_id, conversation_id, position);
INSERT INTO conversations VALUES (0, 'conv_orchard01', 1757325600, 1757325690, 'Orchard irrigation valves', NULL, 'conv_orchard01', 9);
INSERT INTO conversations VALUES (0, 'conv_scout02', 1757325630, 1757325650, '', 'conv_orchard01', 'conv_orchard01', 3);
INSERT INTO omnigent_conversation_metadata VALUES (0, 'conv_orchard01', 1, NULL, NULL, NULL, '/home/dev/projects/orchard', 'main', 0);
INSERT INTO omnigent_conversation_metadata VALUES (0, 'conv_scout02', 2, 'scout', NULL, NULL, NULL, NULL, 0);
INSERT INTO agent_configuration VALUES (0, 'conv_orchard01', 'polly', 'high', 'claude-opus-4-1', NULL);
INSERT INTO conversation_items VALUES
(0, 'conv_orchard01', 'itm_01', 0, 1, 1, '{"role": "user", "content": [{"type": "input_text", "text": "Valve 3 in the orchard stays open after the irrigation window closes. omnigentappletreekeyword"}]}', 'Valve 3 in the orchard stays open after the irrigation window closes. omnigentappletreekeyword'),
(0, 'conv_orchard01', 'itm_02', 1, 1, 1, '{"role": "user", "content": [{"type": "input_text", "text": "Skill: always run the tests after an edit."}], "is_meta": true}', ''),
(0, 'conv_orchard01', 'itm_03', 2, 4, 1, '{"model": "polly", "summary": [{"type": "summary_text", "text": "The close command is probably sent before the window end is recomputed."}]}', ''),
(0, 'conv_orchard01', 'itm_04', 3, 2, 1, '{"agent": "polly", "name": "sys_os_shell", "arguments": "{\"command\": \"grep -n close_valve irrigation/schedule.py\"}", "call_id": "toolu_o1"}', 'grep -n close_valve irrigation/schedule.py'),
(0, 'conv_scout02', 'itm_s1', 0, 1, 1, '{"role": "user", "content": [{"type": "input_text", "text": "Find every caller of close_valve."}]}', 'Find every caller of close_valve.'),
(0, 'conv_scout02', 'itm_s2', 1, 1, 1, '{"role": "assistant", "agent": "scout", "content": [{"type": "output_text", "text": "close_valve is called only from irrigation/schedule.py line 41."}]}', 'close_valve is called only from irrigation/schedule.py line 41.'),
(0, 'conv_orchard01', 'itm_05', 4, 3, 1, '{"call_id": "toolu_o1", "output": "41:    if now > window.end: close_valve(valve)"}', ''),
(0, 'conv_orchard01', 'itm_06', 5, 2, 1, '{"agent": "polly", "name": "sys_edit_file", "arguments": "{\"path\": \"/home/dev/projects/orchard/irrigation/schedule.py\", \"old_string\": \"if now > window.end\", \"new_string\": \"if now >= window.end\"}", "call_id": "toolu_o2"}', ''),
(0, 'conv_orchard01', 'itm_07', 6, 3, 1, '{"call_id": "toolu_o2", "output": "Edited /home/dev/projects/orchard/irrigation/schedule.py"}', ''),
(0, 'conv_orchard01', 'itm_08', 7, 5, 1, '{"source": "execution", "code": "TimeoutError", "message": "test runner timed out after 120 s"}', ''),
(0, 'conv_orchard01', 'itm_09', 8, 1, 1, '{"role": "assistant", "agent": "polly", "content": [{"type": "output_text", "text": "The valve closed only strictly after the window end, so a tick landing exactly on it was skipped; it now closes at the end too. The test run timed out, so please rerun it."}]}', '');
