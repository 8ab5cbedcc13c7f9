"""Hermes: live session files rewritten in place (``~/.hermes/sessions/session_*.json``)."""

from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="hermes",
    display_name="Hermes",
    adapter="moraine.harnesses.hermes.adapter:HermesAdapter",
    locations=(
        Location(
            "hermes",
            "~/.hermes/sessions/session_*.json",
            reader="session_json",
            windows_glob="~/.hermes/sessions/session_*.json",
        ),
    ),
    readers={"session_json": "moraine.harnesses.hermes.reader:HermesSessionReader"},
    reads="session messages (text, reasoning, tool calls and results); ShareGPT trajectory lines when configured",
    not_read="trajectory batches are not watched by default",
)
