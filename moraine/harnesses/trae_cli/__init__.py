"""TRAE CLI (TraeX, ``traex``): Codex-format rollout JSONL under ``~/.trae/cli/``."""

from __future__ import annotations

from moraine.harness_api.declaration import Harness, Location, Resume

HARNESS = Harness(
    name="trae-cli",
    display_name="TRAE CLI",
    adapter="moraine.harnesses.trae_cli.adapter:TraeCliAdapter",
    # 2: issue 46's usage, read as Codex's: a repeated token_count counted once, cached input out of input
    revision=2,
    usage="per model call, as Codex's (`token_count` events' `last_token_usage`, repeats counted once)",
    locations=(
        Location(source="trae-cli", glob="~/.trae/cli/sessions/**/*.jsonl"),
        Location(source="trae-cli-archived", glob="~/.trae/cli/archived_sessions/*.jsonl"),
    ),
    resume=Resume(("traex", "resume")),
    reads=(
        "sessions/YYYY/MM/DD/rollout-*.jsonl and archived_sessions/*.jsonl, Codex's rollout format: prompts, "
        "answers, reasoning, function calls and outputs with exit codes, patches, token counts, model, cwd, "
        "sub-agent threads"
    ),
    not_read="history.jsonl (the prompts again, as a live-activity hint); no session index exists for titles",
)
