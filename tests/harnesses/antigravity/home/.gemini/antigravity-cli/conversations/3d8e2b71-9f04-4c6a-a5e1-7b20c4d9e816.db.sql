CREATE TABLE steps (idx INTEGER PRIMARY KEY, step_type INTEGER, status INTEGER, step_payload BLOB);
INSERT INTO steps VALUES (0, 14, 3, X'080e');
INSERT INTO steps VALUES (1, 15, 3, X'080f');
