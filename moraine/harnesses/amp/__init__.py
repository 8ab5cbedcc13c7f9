"""Amp (Sourcegraph): the thread JSON files older Amp releases kept locally (``~/.local/share/amp/threads/``)."""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="amp",
    display_name="Amp",
    adapter="moraine.harnesses.amp.adapter:AmpAdapter",
    usage="per assistant message (its usage object)",
    locations=(Location(source="amp", glob="~/.local/share/amp/threads/*.json", reader="amp_thread"),),
    readers={"amp_thread": "moraine.harnesses.amp.thread_reader:AmpThreadReader"},
    reads=(
        "user and assistant messages, thinking, tool uses and both tool-result shapes (errors, cancellations); "
        "title, first tree as cwd, creation time, per-message model, usage and time"
    ),
    not_read=(
        "threads kept only on Amp's servers (current releases), user-message times, meta traces, no resume "
        "command (the CLI's continue syntax could not be confirmed from the facts read)"
    ),
)
