"""Kiro CLI: session logs with a JSON sidecar under ``~/.kiro/sessions/cli``."""

from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="kiro-cli",
    display_name="Kiro CLI",
    adapter="moraine.harnesses.kiro_cli.adapter:KiroAdapter",
    locations=(
        Location("kiro", "~/.kiro/sessions/cli/*.jsonl", windows_glob="~/.kiro/sessions/cli/*.jsonl"),
    ),
    reads="prompts, assistant text and thinking, tool uses and results, compactions; title, cwd, model (sidecar)",
    not_read="the Kiro IDE's own chat store",
)
