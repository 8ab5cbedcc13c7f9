-- VS Code workspace state (state.vscdb) for the vscode-copilot harness tests: written for this project.
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable VALUES ('chat.ChatSessionStore.index', '{"version": 1, "entries": {"a41c7e93-58d2-4b06-b3f1-9e2d6c0a7b85": {"sessionId": "a41c7e93-58d2-4b06-b3f1-9e2d6c0a7b85", "title": "Tide clock lunar offset constant", "lastMessageDate": 1786266045000, "timing": {"startTime": 1786266000000, "endTime": 1786266045000}, "initialLocation": "panel", "hasPendingEdits": false, "isEmpty": false}}}');
INSERT INTO ItemTable VALUES ('workbench.panel.chat.numberOfVisibleViews', '1');
