"""What the adapters of snapshots share: a conversation re-read whole on each pass, emitted only where it is new.

A store reader (``moraine.harnesses._shared.snapshot_poller`` for SQLite stores of rows, or
``moraine.harnesses._shared.vscode_state`` for a VS Code fork's ``ItemTable``) yields a conversation's whole
message list each time it changes. Both adapter sides count, per conversation in the stream state, how many
messages were emitted (``_emit_from``), so a snapshot seen again emits nothing twice.

``fresh`` (snapshot records of SQLite stores) keeps the metadata last announced beside that count: it returns the
``SessionInfo`` when the title or cwd changed, and the messages not yet emitted with their index (the newest held
back while the snapshot is ``unsettled``). ``take_new`` (state-database snapshots) returns the messages not emitted
among the first ``complete``; ``said_events`` turns plain user/assistant text messages (``Said``) into events: an
assistant message is its turn's final answer when a user message follows it or the snapshot is settled and it is
the last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.fields import as_dict, as_str, read_timestamp
from moraine.harnesses._shared.memory import changed, session_entry
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["Conversation", "Said", "fresh", "read_new_messages", "said_events", "snapshot_of", "take_new"]


def _emit_from(entry: dict[str, Any], key: str, ready: int) -> range:
    """Return the indices of the messages before ``ready`` not emitted yet, and count them as emitted in ``entry``."""
    stored = entry.get(key)
    done = stored if isinstance(stored, int) else 0
    entry[key] = max(done, ready)
    return range(done, ready)


@dataclass(frozen=True, slots=True)
class Conversation:
    """A snapshot's conversation: its session id and the metadata the store keeps on it."""

    session: str
    title: Any = None
    cwd: str | None = None
    created: Any = None  # the creation time as stored


def fresh(
    state: dict[str, Any],
    conversation: Conversation,
    messages: Sequence[Any],
    unsettled: bool,
    out: list[Emitted],
) -> list[tuple[int, Any]]:
    """Append the conversation's changed metadata to ``out``; return the ``(index, message)`` pairs not yet emitted."""
    seen = session_entry(state, "sessions", conversation.session)
    if changed(seen, "meta", [conversation.title, conversation.cwd]):
        started = read_timestamp(conversation.created, out)
        title = as_str(conversation.title)
        out.append(SessionInfo(conversation.session, title=title, cwd=conversation.cwd, started_at=started))
    ready = len(messages) - 1 if unsettled else len(messages)
    return [(index, messages[index]) for index in _emit_from(seen, "messages", ready)]


def snapshot_of(
    data: dict[str, Any], store: str, holder: str, keys: tuple[str, str, str, str]
) -> tuple[Conversation, list[Any]] | IngestError:
    """Return a snapshot's conversation (its row under ``holder``) and messages, or why it cannot be read.

    ``keys`` name the row's id, title, cwd and creation time columns.
    """
    row = as_dict(data.get(holder))
    ident, title, cwd, created = (row.get(key) for key in keys)
    messages = data.get("messages")
    if ident is None or ident == "" or not isinstance(messages, list):
        return IngestError("malformed_record", f"{store} snapshot without a {holder} id or a messages list")
    return Conversation(str(ident), title, as_str(cwd), created), messages


def read_new_messages(
    data: dict[str, Any],
    state: dict[str, Any],
    spelling: tuple[str, str, tuple[str, str, str, str]],
    read: Callable[[Conversation, dict[str, Any], list[Emitted]], Iterable[Emitted]],
) -> list[Emitted]:
    """Return what a snapshot adds: changed metadata, then ``read(conversation, message, out)`` of each new message.

    ``spelling`` is ``(store name, holder, keys)`` as ``snapshot_of`` takes them; the snapshot's ``unsettled`` flag
    holds its newest message back; an unreadable snapshot yields its error.
    """
    store, holder, keys = spelling
    found = snapshot_of(data, store, holder, keys)
    if isinstance(found, IngestError):
        return [found]
    out: list[Emitted] = []
    conversation, messages = found
    for _, message in fresh(state, conversation, messages, data.get("unsettled") is True, out):
        out.extend(read(conversation, as_dict(message), out))
    return out


def take_new(
    state: dict[str, Any], conversation: str, items: list[Any], complete: int
) -> tuple[int, list[Any], dict[str, Any]]:
    """Return ``(index of the first new item, the new items among the first complete ones, the memory entry)``.

    The entry (a JSON object in the stream state) remembers how many items were emitted; the caller may keep
    more of what it announced about the conversation there.
    """
    entry = session_entry(state, "conversations", conversation)
    new = _emit_from(entry, "emitted", complete)
    return new.start, items[new.start : complete], entry


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
