"""Devin CLI (Cognition): per-session transcripts beside the session list in ``~/.local/share/devin/cli/``."""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="devin-cli",
    display_name="Devin CLI",
    adapter="moraine.harnesses.devin_cli.adapter:DevinCliAdapter",
    usage="per step (`metrics`: prompt, cached and completion tokens; the prompt count includes the cached, left out of input)",
    locations=(
        Location(
            source="devin-cli",
            glob="~/.local/share/devin/cli/transcripts/*.json",
            reader="devin_transcript",
        ),
        Location(
            source="devin-cli-nodes",
            glob="~/.local/share/devin/cli/sessions.db",
            reader="devin_nodes",
        ),
    ),
    readers={
        "devin_transcript": "moraine.harnesses.devin_cli.transcript_reader:DevinTranscriptReader",
        "devin_nodes": "moraine.harnesses.devin_cli.nodes_reader:DevinNodesReader",
    },
    reads=(
        "transcript steps: user and agent messages, thinking, tool uses (in the message and top-level) and "
        "results, system steps, per-step model and token metrics; title, directory, model, start from sessions.db; "
        "the message_nodes of sessions that have no transcript (source devin-cli-nodes)"
    ),
    not_read=(
        "a session read from its nodes before its transcript appeared is kept twice (one per source), "
        "final_metrics totals, node token usage, no resume command (not confirmed from the facts read)"
    ),
)
