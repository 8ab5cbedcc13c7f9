"""Goose (Block's agent): JSONL session files before 1.10, the ``sessions.db`` SQLite store since."""

from moraine.harness_api.declaration import Harness, Location, Resume

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="goose",
    display_name="Goose",
    adapter="moraine.harnesses.goose.adapter:GooseAdapter",
    locations=(
        Location(
            source="goose",
            glob="~/.local/share/goose/sessions/*.jsonl",
            windows_glob="~/AppData/Roaming/Block/goose/data/sessions/*.jsonl",
        ),
        Location(
            source="goose-sqlite",
            glob="~/.local/share/goose/sessions/sessions.db",
            reader="goose_sqlite",
            windows_glob="~/AppData/Roaming/Block/goose/data/sessions/sessions.db",
        ),
    ),
    # goose session --resume --session-id <id> (the CLI's documented form; --id is its alias)
    resume=Resume(("goose", "session", "--resume", "--session-id")),
    readers={"goose_sqlite": "moraine.harnesses.goose.sqlite_reader:GooseSqliteReader"},
    reads=(
        "user and assistant text, thinking, tool requests and responses (errors), notices; session name or "
        "description as title, working directory, model (sessions.db), sub-agent parent"
    ),
    not_read=(
        "token usage (sessions.db usage_ledger and the JSONL metadata keep per-session totals not tied to a "
        "message), images' data, messages hidden from the user (userVisible false)"
    ),
)
