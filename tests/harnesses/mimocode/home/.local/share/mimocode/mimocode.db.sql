-- MiMoCode store (mimocode.db), OpenCode's schema: written for this project's tests.
CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text, `slug` text NOT NULL, `directory` text NOT NULL, `title` text NOT NULL, `version` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL);
CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
INSERT INTO session VALUES
  ('ses_mimo_kite01', 'prj_kite', NULL, 'kite', '/home/dev/kitelog', 'Kite wind log units', '0.9.1', 1794000000000, 1794000060000);
INSERT INTO message VALUES
  ('msg_k1', 'ses_mimo_kite01', 1794000001000, 1794000001000, '{"role": "user", "time": {"created": 1794000001000}, "agent": "build", "model": {"providerID": "xiaomi", "modelID": "mimo-v2"}}'),
  ('msg_k2', 'ses_mimo_kite01', 1794000002000, 1794000009000, '{"role": "assistant", "parentID": "msg_k1", "modelID": "mimo-v2", "providerID": "xiaomi", "path": {"cwd": "/home/dev/kitelog", "root": "/home/dev/kitelog"}, "time": {"created": 1794000002000, "completed": 1794000009000}, "finish": "tool-calls"}'),
  ('msg_k3', 'ses_mimo_kite01', 1794000010000, 1794000014000, '{"role": "assistant", "parentID": "msg_k1", "modelID": "mimo-v2", "providerID": "xiaomi", "path": {"cwd": "/home/dev/kitelog", "root": "/home/dev/kitelog"}, "time": {"created": 1794000010000, "completed": 1794000014000}, "finish": "stop"}');
INSERT INTO part VALUES
  ('prt_k01', 'msg_k1', 'ses_mimo_kite01', 1794000001000, 1794000001000, '{"type": "text", "text": "The kite log stores wind speed in knots but labels it m/s. Convert on write. mimocodeheronkeyword", "time": {"start": 1794000001000}}'),
  ('prt_k02', 'msg_k2', 'ses_mimo_kite01', 1794000002000, 1794000002000, '{"type": "step-start"}'),
  ('prt_k03', 'msg_k2', 'ses_mimo_kite01', 1794000003000, 1794000004000, '{"type": "reasoning", "text": "Find the writer in log.ts and multiply by 0.514.", "time": {"start": 1794000003000, "end": 1794000004000}}'),
  ('prt_k04', 'msg_k2', 'ses_mimo_kite01', 1794000005000, 1794000008000, '{"type": "tool", "callID": "call_k1", "tool": "edit", "state": {"status": "completed", "input": {"filePath": "/home/dev/kitelog/src/log.ts", "oldString": "write(speed)", "newString": "write(speed * 0.514)"}, "output": "Edit applied successfully.", "metadata": {}, "time": {"start": 1794000005000, "end": 1794000008000}}}'),
  ('prt_k05', 'msg_k2', 'ses_mimo_kite01', 1794000008500, 1794000008500, '{"type": "tool", "callID": "call_k2", "tool": "bash", "state": {"status": "completed", "input": {"command": "npm test", "description": "Run tests"}, "output": "12 passing", "metadata": {"exit": 0}, "time": {"start": 1794000008500, "end": 1794000008900}}}'),
  ('prt_k06', 'msg_k2', 'ses_mimo_kite01', 1794000009000, 1794000009000, '{"type": "step-finish", "reason": "tool-calls", "tokens": {"input": 1800, "output": 120, "reasoning": 40, "cache": {"read": 900, "write": 0}}}'),
  ('prt_k07', 'msg_k3', 'ses_mimo_kite01', 1794000010000, 1794000010000, '{"type": "step-start"}'),
  ('prt_k08', 'msg_k3', 'ses_mimo_kite01', 1794000011000, 1794000013000, '{"type": "text", "text": "Wind speed is now converted from knots to m/s when it is written; tests pass.", "time": {"start": 1794000011000, "end": 1794000013000}}'),
  ('prt_k09', 'msg_k3', 'ses_mimo_kite01', 1794000014000, 1794000014000, '{"type": "step-finish", "reason": "stop", "tokens": {"input": 2000, "output": 30, "reasoning": 0, "cache": {"read": 1700, "write": 0}}}');
