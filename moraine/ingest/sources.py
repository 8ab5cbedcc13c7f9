"""The standard ingest sources: one row per configured source name, as the interface document lists them.

``DEFAULT_SOURCES`` rows are ``(name, harness, glob relative to the home directory, format)``. Formats: ``jsonl``
(read by the pipeline's JSONL reader) and the non-JSONL formats of ``moraine.ingest.readers`` (``session_json``,
``cursor_sqlite``, ``opencode_sqlite``, ``nac_sqlite``). ``MACOS_ONLY`` and ``SETUP_MANAGED`` name the rows that
are not on by default everywhere; ``MACOS_GLOBS`` gives the macOS location where it differs.
"""

from __future__ import annotations

__all__ = ["DEFAULT_SOURCES", "MACOS_GLOBS", "MACOS_ONLY", "SETUP_MANAGED", "SourceRow"]

SourceRow = tuple[str, str, str, str]

DEFAULT_SOURCES: tuple[SourceRow, ...] = (
    ("claude", "claude-code", ".claude/projects/**/*.jsonl", "jsonl"),
    (
        "claude-cowork",
        "claude-code",
        "Library/Application Support/Claude/local-agent-mode-sessions/**/.claude/projects/**/*.jsonl",
        "jsonl",
    ),
    ("codex", "codex", ".codex/sessions/**/*.jsonl", "jsonl"),
    ("cursor", "cursor", ".cursor/projects/*/agent-transcripts/**/*.jsonl", "jsonl"),
    ("cursor-sqlite", "cursor", ".config/Cursor/User/globalStorage/state.vscdb", "cursor_sqlite"),
    ("hermes", "hermes", ".hermes/sessions/session_*.json", "session_json"),
    ("kimi-cli", "kimi-cli", ".kimi/sessions/**/wire.jsonl", "jsonl"),
    ("kiro", "kiro-cli", ".kiro/sessions/cli/*.jsonl", "jsonl"),
    ("nac", "nac", ".nac/store.db", "nac_sqlite"),
    ("omp", "pi-coding-agent", ".omp/agent/sessions/**/*.jsonl", "jsonl"),
    ("opencode", "opencode", ".local/share/opencode/opencode*.db", "opencode_sqlite"),
    ("pi", "pi-coding-agent", ".pi/agent/sessions/**/*.jsonl", "jsonl"),
    ("prime-agent", "prime-agent", ".prime/agent/sessions/*.jsonl", "jsonl"),
    ("prime-agent-subagents", "prime-agent", ".prime/agent/session-artifacts/**/sub-*/*.jsonl", "jsonl"),
    ("qwen-code", "qwen-code", ".qwen/projects/*/chats/*.jsonl", "jsonl"),
)

MACOS_ONLY = frozenset({"claude-cowork"})
# NAC's store is created by `moraine setup`: the source stays off until then.
SETUP_MANAGED = frozenset({"nac"})
MACOS_GLOBS = {
    "cursor-sqlite": "Library/Application Support/Cursor/User/globalStorage/state.vscdb",
}
