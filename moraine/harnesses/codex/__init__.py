"""Codex: rollout JSONL files under ``~/.codex/sessions``."""

from moraine.harness_api.declaration import Harness, Location, Resume

HARNESS = Harness(
    name="codex",
    display_name="Codex",
    adapter="moraine.harnesses._shared.codex_format.adapter:CodexAdapter",
    # 2: issue 46's usage: a repeated token_count counted once, cached input left out of input
    revision=2,
    usage="per model call (`token_count` events' `last_token_usage`; a repeated event, `total_token_usage` unchanged, is counted once; cached input is left out of input)",
    locations=(
        Location("codex", "~/.codex/sessions/**/*.jsonl", windows_glob="~/.codex/sessions/**/*.jsonl"),
    ),
    resume=Resume(("codex", "resume")),
    reads="user and assistant messages, reasoning (encrypted kept opaque), tool calls and outputs, turn ends, model",
    not_read="archived sessions (~/.codex/archived_sessions), the history.jsonl prompt log",
)
