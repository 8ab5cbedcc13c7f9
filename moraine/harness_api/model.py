"""The normalized vocabulary every ingest adapter produces and the store consumes.

Data flows one way: trace files -> adapters (pure: raw record -> ``Emitted`` items) -> pipeline (turns, ordinals,
checkpoints, redaction, batching) -> store. Adapters know nothing about turns' ordinals, IDs or the store; the
pipeline knows nothing about any harness's format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

# A session's first prompt as kept on its row, which every batch re-publishes: bounded (ingest and adapters both cut it).
FIRST_PROMPT_CHARS = 4000


class EventType(StrEnum):
    """The nine normalized event types, in Moraine's canonical order (the order canonical requests use)."""

    USER_INPUT = "user_input"
    ASSISTANT_RESPONSE = "assistant_response"
    REASONING = "reasoning"
    TOOL_CALL = "tool_call"
    TOOL_RESPONSE = "tool_response"
    COMPACTION = "compaction"
    SYSTEM = "system"
    RUNTIME = "runtime"
    UNKNOWN = "unknown"


class ContentFormat(StrEnum):
    """How ``open(event).data.content`` is shaped."""

    TEXT = "text"
    TOOL_CALL = "tool_call"
    TOOL_RESPONSE = "tool_response"
    REASONING = "reasoning"


class TerminalKind(StrEnum):
    """Why an event ends its turn (DESIGN.md: any of these makes the turn ``completed``)."""

    FINAL_RESPONSE = "final_response"
    CANCELLED = "cancelled"
    INTERRUPTED = "interrupted"
    CRASHED = "crashed"
    EXITED = "exited"
    STOPPED = "stopped"


class SessionMode(StrEnum):
    """Session mode, highest rank first: a session takes the highest mode any of its events shows."""

    WEB_SEARCH = "web_search"
    MCP_INTERNAL = "mcp_internal"
    TOOL_CALLING = "tool_calling"
    CHAT = "chat"


# Moraine's own tools: calls to these (bare or provider-qualified, e.g. mcp__moraine__open) are never search hits
# and never file touches.
MORAINE_TOOL_NAMES = frozenset({"search_sessions", "open", "list_sessions", "file_attention"})


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Tokens one model call used, as the trace records them (None where it does not say), in one convention for
    every harness (an adapter converts its trace's): ``input`` is the input neither read from nor written to the
    prompt cache (Anthropic's ``input_tokens``; OpenAI's and Gemini's prompt counts minus their cached tokens),
    ``cache_read`` and ``cache_write`` the cached input, ``output`` every output token billed as output, reasoning
    included, and ``reasoning`` the part of ``output`` that was reasoning."""

    input: int | None = None
    output: int | None = None
    cache_read: int | None = None
    cache_write: int | None = None
    reasoning: int | None = None


@dataclass(slots=True)
class Event:
    """One normalized event, as an adapter emits it.

    ``session`` is the harness's own session identifier (the pipeline derives the stable Moraine key from it and
    the source name). ``starts_turn`` marks real user input that opens a new turn; events before the first such
    event belong to turn 1. ``terminal`` marks an event that ends its turn (``terminal_kind`` says why).
    """

    session: str
    type: EventType
    text: str = ""
    timestamp: datetime | None = None  # timezone-aware; None when the source has none (never epoch)
    starts_turn: bool = False
    terminal: bool = False
    terminal_kind: TerminalKind | None = None
    # Present on final assistant messages; the turn's final_response is the last such event.
    is_final_answer: bool = False
    content_format: ContentFormat = ContentFormat.TEXT
    tool_name: str | None = None  # canonical spelling (provider prefixes for Moraine tools removed)
    tool_call_id: str | None = None
    arguments: Any = None  # tool_call: the structured arguments (JSON value) as the harness recorded them
    exit_code: int | None = None  # tool_response
    tool_error: bool | None = None  # tool_response
    model: str | None = None  # the model that produced this event (assistant/reasoning/tool_call)
    usage: TokenUsage | None = None  # tokens of the model call that produced this event, where recorded
    cwd: str | None = None
    encrypted: bool = (
        False  # opaque reasoning payload: summaries show the placeholder, open shows the payload
    )
    is_moraine_tool: bool = False  # a call to/response from Moraine's own tools: openable, never a hit/touch
    sidechain: bool = False
    provenance: dict[str, Any] = field(
        default_factory=dict
    )  # raw kind, payload type, original tool name, ...


@dataclass(slots=True)
class SessionInfo:
    """Session-level metadata an adapter learns from a record (any field may be None = unchanged).

    ``title`` is an explicit title/name from the harness; ``summary``/``slug`` are the harness's own metadata;
    ``first_user_message`` feeds ``display_label``. ``parent_session`` links sub-agent sessions to their parent.
    """

    session: str
    title: str | None = None
    summary: str | None = None
    slug: str | None = None
    cwd: str | None = None
    model: str | None = None
    started_at: datetime | None = None
    parent_session: str | None = None
    first_user_message: str | None = None


@dataclass(slots=True)
class IngestError:
    """A record that could not be normalized: recorded, skipped, and ingest goes on."""

    reason: str
    detail: str = ""


Emitted = Event | SessionInfo | IngestError


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record of a trace file: a parsed JSON line with its location (byte offset and 1-based line number)."""

    data: Any
    line_no: int
    offset: int
