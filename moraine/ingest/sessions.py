"""Per-session running state: sequence numbers, turn split, and the turn/session aggregates the read models need.

The state is plain data so it round-trips through the stream checkpoint as JSON: a stream resumes mid-file with the
same seq, turn and ordinal counters and the same aggregates. Timestamps are epoch milliseconds here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from moraine.harness_api.model import FIRST_PROMPT_CHARS, Event, EventType, SessionInfo, SessionMode

__all__ = ["SessionState", "TurnState", "mode_of"]

COMPACT_CHARS = 240
_MODE_RANK = {
    SessionMode.CHAT: 0,
    SessionMode.TOOL_CALLING: 1,
    SessionMode.MCP_INTERNAL: 2,
    SessionMode.WEB_SEARCH: 3,
}
_RANK_MODE = {rank: mode for mode, rank in _MODE_RANK.items()}
_WEB_TOOLS = frozenset({"web_search", "websearch", "webfetch", "web_fetch", "web_search_call", "search_web"})
_WEB_PAYLOADS = frozenset({"web_search_call", "search_results_received"})


def mode_of(event: Event) -> SessionMode:
    """Return the mode an event shows: web search > Moraine's own tools > any tool use > chat."""
    name = (event.tool_name or "").lower()
    if name in _WEB_TOOLS or event.provenance.get("payload_type") in _WEB_PAYLOADS:
        return SessionMode.WEB_SEARCH
    if event.is_moraine_tool:
        return SessionMode.MCP_INTERNAL
    if event.type in (EventType.TOOL_CALL, EventType.TOOL_RESPONSE):
        return SessionMode.TOOL_CALLING
    return SessionMode.CHAT


def compact(text: str, limit: int = COMPACT_CHARS) -> tuple[str, bool]:
    """Return ``text`` on one line with runs of whitespace collapsed, cut at ``limit`` chars, and whether it was cut."""
    head = text[: limit * 4 + 64]
    line = " ".join(head.split())
    if len(line) > limit:
        return line[: limit - 1].rstrip() + "…", True
    return line, len(head) < len(text) and bool(line)


@dataclass(slots=True)
class TurnState:
    turn_seq: int
    first_seq: int = 0
    last_seq: int = 0
    event_count: int = 0
    completed: bool = False
    terminal_seq: int | None = None
    started_at: int | None = None
    updated_at: int | None = None
    user_input_seq: int | None = None
    user_input_text: str = ""
    user_input_truncated: bool = False
    final_seq: int | None = None
    final_text: str = ""
    final_truncated: bool = False
    tools_called: list[str] = field(default_factory=list)
    event_types: list[str] = field(default_factory=list)

    def close_followed(self) -> None:
        """End this turn because the next user prompt follows it: whatever the harness recorded, it is over.

        Its terminal event is its final-response candidate (the last assistant text with no tool call after it)
        when it has one, else its last event; a terminal event the harness recorded is kept."""
        if self.completed or self.event_count == 0:
            return
        self.completed = True
        self.terminal_seq = self.final_seq if self.final_seq is not None else self.last_seq

    def add(self, seq: int, event: Event, ts_ms: int | None) -> None:
        """Fold one event (already redacted) into the aggregates."""
        if self.event_count == 0:
            self.first_seq = seq
        self.last_seq = seq
        self.event_count += 1
        if ts_ms is not None:
            self.started_at = ts_ms if self.started_at is None else min(self.started_at, ts_ms)
            self.updated_at = ts_ms if self.updated_at is None else max(self.updated_at, ts_ms)
        if event.terminal:
            self.completed = True
            self.terminal_seq = seq
        if event.type is EventType.USER_INPUT and self.user_input_seq is None:
            self.user_input_seq = seq
            self.user_input_text, self.user_input_truncated = compact(event.text)
        if event.is_final_answer:
            self.final_seq = seq
            self.final_text, self.final_truncated = compact(event.text)
        elif event.type is EventType.TOOL_CALL and not event.sidechain and not self.completed:
            # The agent kept working after that text: it was not the turn's final response.
            self.final_seq, self.final_text, self.final_truncated = None, "", False
        if event.type is EventType.TOOL_CALL and event.tool_name and event.tool_name not in self.tools_called:
            self.tools_called.append(event.tool_name)
        if event.type is not EventType.UNKNOWN and event.type.value not in self.event_types:
            self.event_types.append(event.type.value)


@dataclass(slots=True)
class SessionState:
    harness_session_id: str
    key: int
    seq: int = 0
    turn_seq: int = 0
    ordinal: int = 0
    seen_turn_start: bool = False
    turn: TurnState | None = None
    title: str | None = None
    summary: str | None = None
    slug: str | None = None
    cwd: str | None = None
    model: str | None = None
    first_user_message: str | None = None
    parent_session: str | None = None
    started_at: int | None = None
    updated_at: int | None = None
    completed: bool = False
    turn_count: int = 0
    event_count: int = 0
    mode_rank: int = 0
    emitted: bool = False  # a session row exists in the store

    @property
    def mode(self) -> SessionMode:
        return _RANK_MODE[self.mode_rank]

    @property
    def answered(self) -> bool:
        """Whether the newest turn ends on an assistant answer (it completes once the session stays idle)."""
        return self.turn is not None and not self.turn.completed and self.turn.final_seq is not None

    def apply_info(self, info: SessionInfo, started_ms: int | None) -> None:
        """Fold session metadata: later values win, except the first user message and the start time."""
        for name in ("title", "summary", "slug", "cwd", "model", "parent_session"):
            value = getattr(info, name)
            if isinstance(value, str) and value:
                setattr(self, name, value)
        if info.first_user_message and not self.first_user_message:
            self.first_user_message = info.first_user_message
        if started_ms is not None:
            self.started_at = started_ms if self.started_at is None else min(self.started_at, started_ms)

    def next_position(self, event: Event) -> tuple[int, int, int, bool]:
        """Assign (seq, turn_seq, ordinal) to the next event; the flag says a new turn opened (the old one closed)."""
        opened = False
        if self.turn is None:
            self.turn_seq = 1
            self.turn = TurnState(1)
            self.turn_count = 1
            opened = True
        if event.starts_turn:
            first_start_in_quiet_turn_one = (
                not self.seen_turn_start and self.turn_seq == 1 and self.turn.user_input_seq is None
            )
            self.seen_turn_start = True
            if not first_start_in_quiet_turn_one:
                self.turn.close_followed()
                self.turn_seq += 1
                self.turn = TurnState(self.turn_seq)
                self.turn_count = self.turn_seq
                self.ordinal = 0
                opened = True
        self.seq += 1
        self.ordinal += 1
        return self.seq, self.turn_seq, self.ordinal, opened

    def add(self, seq: int, event: Event, ts_ms: int | None) -> None:
        """Fold an event into the current turn and the session aggregates."""
        assert self.turn is not None
        self.turn.add(seq, event, ts_ms)
        self.event_count += 1
        if ts_ms is not None:
            self.started_at = ts_ms if self.started_at is None else min(self.started_at, ts_ms)
            self.updated_at = ts_ms if self.updated_at is None else max(self.updated_at, ts_ms)
        self.completed = self.turn.completed
        if (
            self.first_user_message is None
            and event.type is EventType.USER_INPUT
            and event.starts_turn
            and not event.sidechain
            and event.text.strip()
        ):  # the session's first prompt, for harnesses whose adapter does not report one (the title falls back to it)
            self.first_user_message = event.text[:FIRST_PROMPT_CHARS]
        if event.cwd and not self.cwd:
            self.cwd = event.cwd
        rank = _MODE_RANK[mode_of(event)]
        if rank > self.mode_rank:
            self.mode_rank = rank

    def to_json(self) -> dict[str, Any]:
        """Return the state as a JSON-serializable dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SessionState:
        """Rebuild the state saved by ``to_json``."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        turn = values.get("turn")
        values["turn"] = TurnState(**turn) if isinstance(turn, dict) else None
        return cls(**values)
