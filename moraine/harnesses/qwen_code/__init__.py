"""Qwen Code: chat-record JSONL files under ``~/.qwen/projects``."""

from moraine.harness_api.declaration import Harness, Location, Resume

HARNESS = Harness(
    name="qwen-code",
    display_name="Qwen Code",
    adapter="moraine.harnesses.qwen_code.adapter:QwenAdapter",
    locations=(
        Location(
            "qwen-code", "~/.qwen/projects/*/chats/*.jsonl", windows_glob="~/.qwen/projects/*/chats/*.jsonl"
        ),
    ),
    resume=Resume(("qwen", "--resume")),
    reads="user and model records: text, thoughts, function calls and their results",
    not_read="telemetry, file snapshots",
)
