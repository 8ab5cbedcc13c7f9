"""Kimi CLI: wire logs under ``~/.kimi/sessions``."""

from moraine.harness_api.declaration import Harness, Location, Resume

HARNESS = Harness(
    name="kimi-cli",
    display_name="Kimi CLI",
    adapter="moraine.harnesses.kimi_cli.adapter:KimiAdapter",
    locations=(
        Location("kimi-cli", "~/.kimi/sessions/**/wire.jsonl", windows_glob="~/.kimi/sessions/**/wire.jsonl"),
    ),
    resume=Resume(("kimi", "--session")),
    reads="prompts, text and thinking parts, tool calls and results, sub-agent logs, working directory (kimi.json)",
    not_read="streaming deltas and status updates (nothing to index)",
)
