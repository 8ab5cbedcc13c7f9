"""Claude Code: JSONL transcripts under ``~/.claude/projects`` (and Claude Desktop's agent mode on macOS)."""

from moraine.harness_api.declaration import Harness, Location, Resume

_COWORK = "~/Library/Application Support/Claude/local-agent-mode-sessions"

HARNESS = Harness(
    name="claude-code",
    display_name="Claude Code",
    adapter="moraine.harnesses._shared.claude_format.adapter:ClaudeCodeAdapter",
    usage="per API message (`message.usage`); the lines of one streamed message each repeat it under the same `message.id` and it is counted once",
    locations=(
        Location("claude", "~/.claude/projects/**/*.jsonl", windows_glob="~/.claude/projects/**/*.jsonl"),
        # Claude Desktop's local agent mode keeps Claude Code transcripts of its own, on macOS only.
        Location("claude-cowork", None, macos_glob=f"{_COWORK}/**/.claude/projects/**/*.jsonl"),
    ),
    resume=Resume(("claude", "--resume")),
    reads=(
        "user and assistant messages, thinking, tool calls and results, sub-agent transcripts (in their parent "
        "session, in the turn of the Task call that started them), titles, model"
    ),
    not_read="file-history snapshots, todo lists, shell snapshots and settings outside the transcripts",
)
