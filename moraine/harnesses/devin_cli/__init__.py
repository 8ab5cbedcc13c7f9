"""Devin CLI (Cognition): per-session transcripts beside the session list in ``~/.local/share/devin/cli/``."""

from moraine.harnesses.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="devin-cli",
    display_name="Devin CLI",
    adapter="moraine.harnesses.devin_cli.adapter:DevinCliAdapter",
    locations=(
        Location(
            source="devin-cli",
            glob="~/.local/share/devin/cli/transcripts/*.json",
            reader="devin_transcript",
        ),
    ),
    readers={"devin_transcript": "moraine.harnesses.devin_cli.transcript_reader:DevinTranscriptReader"},
    reads=(
        "transcript steps: user and agent messages, thinking, tool uses (in the message and top-level) and "
        "results, system steps, per-step model and token metrics; title, directory, model, start from sessions.db"
    ),
    not_read=(
        "sessions that have no transcript (only message_nodes rows in sessions.db), hidden sessions are not "
        "told apart, final_metrics totals, no resume command (not confirmed from the facts read)"
    ),
)
