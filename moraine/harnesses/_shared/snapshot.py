"""What the adapters of store snapshots share: announce a conversation once per change, emit only new messages.

A store reader (``moraine.harnesses._shared.snapshot_reader``) yields a conversation's whole message list each time it
changes. ``fresh`` keeps, per conversation in the stream state, the metadata last announced and how many messages
were emitted: it returns the ``SessionInfo`` when the title or cwd changed, and the messages not yet emitted with
their index (the newest held back while the snapshot is ``unsettled``), then counts them as emitted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from moraine.harnesses._shared.memory import changed, session_entry
from moraine.harnesses._shared.fields import as_dict, as_int, as_str, read_timestamp
from moraine.ingest.model import Emitted, IngestError, SessionInfo

__all__ = ["Conversation", "fresh", "read_new_messages", "snapshot_of"]


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
    emitted = as_int(seen.get("messages")) or 0
    seen["messages"] = max(emitted, ready)
    return [(index, messages[index]) for index in range(emitted, ready)]


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
