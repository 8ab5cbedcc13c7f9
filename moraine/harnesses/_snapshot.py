"""Conversations read from snapshots: a store rewritten whole, where each pass sees every message again.

An editor's state database keeps a conversation as one JSON value it rewrites: each snapshot holds every message
so far. ``take_new`` returns the messages of a conversation not emitted yet (bounded by how many are complete) and
remembers how far it got in the stream state. ``said_events`` turns plain user/assistant text messages into
events: an assistant message is its turn's final answer when a user message follows it or the snapshot is
settled and it is the last.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import session_entry
from moraine.ingest.model import Event, EventType

__all__ = ["Said", "said_events", "take_new"]


def take_new(
    state: dict[str, Any], conversation: str, items: list[Any], complete: int
) -> tuple[int, list[Any], dict[str, Any]]:
    """Return ``(index of the first new item, the new items among the first complete ones, the memory entry)``.

    The entry (a JSON object in the stream state) remembers how many items were emitted; the caller may keep
    more of what it announced about the conversation there.
    """
    entry = session_entry(state, "conversations", conversation)
    done = entry.get("emitted") if isinstance(entry.get("emitted"), int) else 0
    entry["emitted"] = max(done, complete)
    return done, items[done:complete], entry


@dataclass(frozen=True, slots=True)
class Said:
    """One plain message of a conversation: who said it, the text, when and with which model."""

    user: bool
    text: str
    timestamp: datetime | None = None
    model: str | None = None


def said_events(
    session: str,
    cwd: str | None,
    messages: list[Said],
    new: range,
    settled: bool,
    provenance: dict[str, Any],
) -> list[Event]:
    """Return the events of the messages at the indices ``new`` (the others tell what follows each)."""
    events: list[Event] = []
    for index in new:
        said = messages[index]
        if not said.text.strip():
            continue
        base = RecordEvents(session, said.timestamp, cwd, provenance={**provenance, "message_index": index})
        if said.user:
            events.append(base.event(EventType.USER_INPUT, text=said.text, starts_turn=True))
            continue
        following = next((m for m in messages[index + 1 :] if m.text.strip()), None)
        final = following.user if following is not None else settled
        events.append(base.answer(said.text, said.model, final=final))
    return events
