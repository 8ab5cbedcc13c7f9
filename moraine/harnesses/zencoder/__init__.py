"""Zencoder: one JSONL transcript per session under ``~/.zencoder/sessions/``."""

from __future__ import annotations

from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="zencoder",
    display_name="Zencoder",
    adapter="moraine.harnesses.zencoder.adapter:ZencoderAdapter",
    locations=(Location(source="zencoder", glob="~/.zencoder/sessions/**/*.jsonl"),),
    reads=(
        "sessions/<id>.jsonl: the header (id, model, start, continuation), system prompts (working directory), "
        "prompts and injected context by tag, responses, reasoning, tool calls and results with errors, turn ends"
    ),
    not_read="permission records, token usage (not recorded); no resume command",
)
