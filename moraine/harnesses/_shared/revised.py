"""Records an agent writes again as they grow: emit each part of a message once, however often it is rewritten.

Some agents rewrite their newest message in place (a whole-document trace re-read by ``json_document``) or append
it again under the same id (Gemini CLI's JSONL): first its text, later its tool calls, results and token counts.
``first_sight`` remembers, in the stream's checkpointed state, which parts of the message being written were
emitted already; a message with another id starts over.
"""

from __future__ import annotations

from typing import Any

__all__ = ["first_sight"]

_KEY = "revised"


def first_sight(state: dict[str, Any], message_id: str | None, part: str) -> bool:
    """Return whether ``part`` of message ``message_id`` is seen for the first time (and remember it).

    A message without an id is never written again, so each of its parts is new.
    """
    if not message_id:
        return True
    entry = state.get(_KEY)
    if (
        not isinstance(entry, dict)
        or entry.get("id") != message_id
        or not isinstance(entry.get("seen"), list)
    ):
        entry = {"id": message_id, "seen": []}
        state[_KEY] = entry
    if part in entry["seen"]:
        return False
    entry["seen"].append(part)
    return True
