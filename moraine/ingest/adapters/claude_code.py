"""Claude Code transcripts (``~/.claude/projects/<project>/<session>.jsonl``) -> normalized events.

Each line is a record ``{"type", "sessionId", "uuid", "parentUuid", "timestamp", "cwd", "gitBranch", "isSidechain",
"message": {"role", "model", "content", "stop_reason"}, ...}``; a message's content is a string or a list of blocks
(text, thinking, tool_use, tool_result, image, ...) and each block becomes one event. Decisions:

- Sessions. A record's ``sessionId``; a sub-agent transcript (a file under ``subagents/`` or named ``agent-*``) is
  its own session ``<sessionId>:<agentId>`` whose parent is ``sessionId``. Sidechain records inside the main
  transcript stay in the main session, flagged ``sidechain``, and never start or end its turns.
- Turns. Real user text starts a turn; tool results, meta messages (``isMeta``, ``<command-name>`` wrappers, local
  command output) and compaction summaries do not. ``[Request interrupted by user...]`` ends the turn (interrupted).
- Final answers. The last text block of an assistant message that does not go on to a tool call is a final-answer
  candidate (the turn's final response is its last candidate); when the message records a ``stop_reason`` other
  than ``tool_use`` that block is also the terminal event. A ``system``/``turn_duration`` record ends the turn too.
- Titles. ``custom-title`` beats ``summary`` beats ``ai-title``; a summary counts for this transcript only when its
  ``leafUuid`` is a record of this file (summaries naming other transcripts' leaves stay compaction events).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from moraine.ingest.adapters._calls import recall_call, remember_call
from moraine.ingest.adapters._claude_state import ClaudeState
from moraine.ingest.adapters._exit import as_exit_code, exit_code_in_header
from moraine.ingest.adapters._text import message_text, render_call
from moraine.ingest.adapters.base import StreamContext
from moraine.ingest.adapters.fields import (
    as_dict,
    as_int,
    as_str,
    canonical_tool_name,
    json_text,
    parse_timestamp,
)
from moraine.ingest.model import (
    ContentFormat,
    Emitted,
    Event,
    EventType,
    IngestError,
    RawRecord,
    SessionInfo,
    TerminalKind,
)

__all__ = ["ClaudeCodeAdapter"]

_INTERRUPT_PREFIX = "[Request interrupted by user"
_META_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<user-memory-input>",
)
_EXIT_HEADER = re.compile(r"^(?:Error: )?Exit code:? (-?\d{1,10})\b")
_EXIT_KEYS = ("exitCode", "exit_code", "returnCode", "return_code")
_CALL_BLOCKS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
_NOT_TERMINAL_STOPS = frozenset({"tool_use", "pause_turn"})
_TITLE_RANK = {"ai-title": 1, "summary": 2, "custom-title": 3}


class ClaudeCodeAdapter:
    """Normalize Claude Code transcript records (see the module docstring for the decisions)."""

    harness = "claude-code"

    def normalize(self, record: RawRecord, ctx: StreamContext) -> Iterable[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line."""
        data = record.data
        if not isinstance(data, dict):
            return [IngestError("malformed_record", f"expected a JSON object, got {type(data).__name__}")]
        kind = data.get("type")
        if not isinstance(kind, str):
            return [IngestError("malformed_record", "claude-code record has no string 'type'")]
        rec = _Record(ctx, data, kind)
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(rec)
        elif kind in _TITLE_RANK:
            key = "customTitle" if kind == "custom-title" else "aiTitle"
            title = as_str(data.get(key)) or as_str(data.get("title"))
            if title:
                rec.state.apply_title(rec.session, title, _TITLE_RANK[kind], rec.out)
        else:
            text = message_text(data.get("message")) or message_text(data.get("content"))
            rec.event(EventType.UNKNOWN, None, text)
        if rec.uuid:
            rec.state.saw_uuid(rec.uuid, rec.session, rec.out)
        return rec.out


class _Record:
    """One transcript line being normalized: its session, shared fields and what it has emitted."""

    def __init__(self, ctx: StreamContext, data: dict[str, Any], kind: str) -> None:
        self.data = data
        self.kind = kind
        self.out: list[Emitted] = []
        self.state = ClaudeState(ctx.state)
        self.timestamp = self.read_timestamp(data.get("timestamp"))
        self.uuid = self.text("uuid")
        recorded = self.text("sessionId")
        parent = recorded or self.state.last_session or _file_session(ctx)
        self.state.last_session = parent
        agent = _subagent_id(ctx, data)
        self.session = f"{parent}:{agent}" if agent else parent
        self.subagent = agent is not None
        sidechain = data.get("isSidechain")
        self.sidechain = sidechain is True or self.subagent
        # Sidechain records inside the main transcript belong to the main session but never shape its turns.
        self.inline_sidechain = self.sidechain and not self.subagent
        self.cwd = self.text("cwd") or self.state.session_value(self.session, "cwd")
        self._announce(parent if agent else None)

    def read_timestamp(self, value: Any) -> datetime | None:
        timestamp, error = parse_timestamp(value)
        if error is not None:
            self.out.append(error)
        return timestamp

    def _announce(self, parent: str | None) -> None:
        if self.kind == "summary":  # a summary may describe another transcript's session
            return
        info = SessionInfo(session=self.session)
        new = self.state.session_value(self.session, "seen") is None
        if new:
            self.state.set_session_value(self.session, "seen", True)
            info.parent_session = parent
            info.started_at = self.timestamp
        cwd = self.text("cwd")
        if cwd and cwd != self.state.session_value(self.session, "cwd"):
            self.state.set_session_value(self.session, "cwd", cwd)
            info.cwd = cwd
        slug = self.text("slug")
        if slug and slug != self.state.session_value(self.session, "slug"):
            self.state.set_session_value(self.session, "slug", slug)
            info.slug = slug
        if new or info.cwd or info.slug:
            self.out.append(info)

    def text(self, key: str, container: dict[str, Any] | None = None) -> str | None:
        source = self.data if container is None else container
        value = source.get(key)
        if value is None or isinstance(value, str):
            return value or None
        self.out.append(
            IngestError(
                "invalid_field",
                f"claude-code {self.kind}.{key}: expected a string, got {type(value).__name__}",
            )
        )
        return None

    def event(self, type_: EventType, payload_type: str | None, text: str, **fields: Any) -> Event:
        provenance: dict[str, Any] = {"record_type": self.kind}
        if payload_type is not None:
            provenance["payload_type"] = payload_type
        for key, name in (("uuid", "uuid"), ("parentUuid", "parent_uuid"), ("gitBranch", "git_branch")):
            value = self.data.get(key)
            if isinstance(value, str) and value:
                provenance[name] = value
        if self.subagent and isinstance(self.data.get("agentId"), str):
            provenance["agent_id"] = self.data["agentId"]
        provenance.update(fields.pop("provenance", {}))
        event = Event(
            session=self.session,
            type=type_,
            text=text,
            timestamp=self.timestamp,
            cwd=self.cwd,
            sidechain=self.sidechain,
            provenance=provenance,
            **fields,
        )
        self.out.append(event)
        return event

    def message(self) -> dict[str, Any] | None:
        message = self.data.get("message")
        if isinstance(message, dict):
            return message
        self.out.append(IngestError("invalid_field", f"claude-code {self.kind} record has no message object"))
        return None


def _file_session(ctx: StreamContext) -> str:
    path = ctx.path
    if path.parent.name == "subagents":
        return path.parent.parent.name
    return path.stem


def _subagent_id(ctx: StreamContext, data: dict[str, Any]) -> str | None:
    path = ctx.path
    if path.parent.name != "subagents" and not path.stem.startswith("agent-"):
        return None
    agent = data.get("agentId")
    return agent if isinstance(agent, str) and agent else path.stem.removeprefix("agent-")


def _user(rec: _Record) -> None:
    message = rec.message()
    if message is None:
        return
    content = message.get("content")
    if rec.data.get("isCompactSummary") is True:
        rec.event(EventType.COMPACTION, "compact_summary", message_text(content))
        return
    meta = rec.data.get("isMeta") is True
    if isinstance(content, str):
        _user_text(rec, content, "text", meta, may_start=True)
        return
    if not isinstance(content, list):
        rec.out.append(
            IngestError("invalid_field", "claude-code user message.content is not a string or list")
        )
        return
    started = False
    results = [block for block in content if isinstance(block, dict) and block.get("type") == "tool_result"]
    for block in content:
        block_type = block.get("type") if isinstance(block, dict) else None
        if not isinstance(block, dict) or not isinstance(block_type, str):
            rec.out.append(
                IngestError("invalid_field", "claude-code user content block has no string 'type'")
            )
        elif block_type == "text":
            started |= _user_text(rec, message_text(block), block_type, meta, may_start=not started)
        elif block_type in ("image", "document"):
            started |= _user_text(rec, f"[{block_type}]", block_type, meta, may_start=not started)
        elif block_type == "tool_result":
            _tool_result(rec, block, single=len(results) == 1)
        else:
            rec.event(EventType.UNKNOWN, block_type, message_text(block))


def _user_text(rec: _Record, text: str, block_type: str, meta: bool, *, may_start: bool) -> bool:
    """Emit one piece of user text; return True when it started a turn."""
    stripped = text.lstrip()
    if stripped.startswith(_INTERRUPT_PREFIX):
        ends = not rec.inline_sidechain
        if ends:
            rec.state.set_session_value(rec.session, "turn_end", TerminalKind.INTERRUPTED.value)
        rec.event(
            EventType.RUNTIME,
            block_type,
            text,
            terminal=ends,
            terminal_kind=TerminalKind.INTERRUPTED if ends else None,
            provenance={"interrupt": True},
        )
        return False
    wrapper = next((prefix for prefix in _META_PREFIXES if stripped.startswith(prefix)), None)
    if meta or wrapper:
        provenance: dict[str, Any] = {"meta": True} if meta else {"wrapper": wrapper}
        rec.event(EventType.SYSTEM, block_type, text, provenance=provenance)
        return False
    starts = may_start and not rec.inline_sidechain
    if starts:
        rec.state.set_session_value(rec.session, "turn_end", None)
    rec.event(EventType.USER_INPUT, block_type, text, starts_turn=starts)
    if starts and text.strip() and not rec.state.session_value(rec.session, "first_user"):
        rec.state.set_session_value(rec.session, "first_user", True)
        rec.out.append(SessionInfo(session=rec.session, first_user_message=text))
    return starts


def _tool_result(rec: _Record, block: dict[str, Any], *, single: bool) -> None:
    call_id = rec.text("tool_use_id", block)
    name = recall_call(rec.state.raw, call_id)
    tool_name, is_moraine = canonical_tool_name(name) if name else (None, False)
    text = message_text(block.get("content"))
    is_error = block.get("is_error")
    result = as_dict(rec.data.get("toolUseResult")) if single else {}
    exit_code = next((as_exit_code(result[key]) for key in _EXIT_KEYS if key in result), None)
    if exit_code is None:
        exit_code = exit_code_in_header(text, _EXIT_HEADER)
    provenance: dict[str, Any] = {"original_tool_name": name} if name != tool_name else {}
    if result.get("interrupted") is True:
        provenance["interrupted"] = True
    rec.event(
        EventType.TOOL_RESPONSE,
        "tool_result",
        text,
        content_format=ContentFormat.TOOL_RESPONSE,
        tool_name=tool_name,
        tool_call_id=call_id,
        exit_code=exit_code,
        tool_error=is_error if isinstance(is_error, bool) else None,
        is_moraine_tool=is_moraine,
        provenance=provenance,
    )


def _assistant(rec: _Record) -> None:
    message = rec.message()
    if message is None:
        return
    model = rec.text("model", message)
    if model == "<synthetic>":
        model = None
    elif model and not rec.inline_sidechain and model != rec.state.session_value(rec.session, "model"):
        rec.state.set_session_value(rec.session, "model", model)
        rec.out.append(SessionInfo(session=rec.session, model=model))
    stop = rec.text("stop_reason", message)
    if rec.data.get("isApiErrorMessage") is True:
        rec.event(
            EventType.SYSTEM,
            "api_error",
            message_text(message.get("content")),
            terminal=not rec.inline_sidechain,
            terminal_kind=None if rec.inline_sidechain else TerminalKind.CRASHED,
            provenance={"api_error": True},
        )
        return
    content = message.get("content")
    if isinstance(content, str):
        blocks: list[Any] = [{"type": "text", "text": content}]
    elif isinstance(content, list):
        blocks = content
    else:
        rec.out.append(IngestError("invalid_field", "claude-code assistant message.content is not a list"))
        return
    types = [_block_type(block) for block in blocks]
    last_call = max((i for i, t in enumerate(types) if t in _CALL_BLOCKS), default=-1)
    final = max((i for i, t in enumerate(types) if t == "text"), default=-1)
    candidate = final > last_call and stop != "tool_use" and not rec.inline_sidechain
    ends = stop is not None and stop not in _NOT_TERMINAL_STOPS and not rec.inline_sidechain
    emitted: list[Event] = []
    for index, (block, block_type) in enumerate(zip(blocks, types, strict=True)):
        event = _assistant_block(rec, block, block_type, model, is_final=candidate and index == final)
        if event is not None:
            emitted.append(event)
    if ends and emitted:
        target = next((e for e in emitted if e.is_final_answer), emitted[-1])
        target.terminal = True
        target.terminal_kind = TerminalKind.STOPPED if stop == "max_tokens" else TerminalKind.FINAL_RESPONSE
        target.provenance["stop_reason"] = stop
        rec.state.set_session_value(rec.session, "turn_end", target.terminal_kind.value)


def _block_type(block: Any) -> str | None:
    kind = block.get("type") if isinstance(block, dict) else None
    return kind if isinstance(kind, str) else None


def _assistant_block(
    rec: _Record, block: Any, block_type: str | None, model: str | None, *, is_final: bool
) -> Event | None:
    if not isinstance(block, dict) or block_type is None:
        rec.out.append(
            IngestError("invalid_field", "claude-code assistant content block has no string 'type'")
        )
        return None
    if block_type == "text":
        return rec.event(
            EventType.ASSISTANT_RESPONSE,
            block_type,
            message_text(block),
            model=model,
            is_final_answer=is_final,
        )
    if block_type in ("thinking", "redacted_thinking"):
        thinking = as_str(block.get("thinking"))
        opaque = None if thinking else as_str(block.get("data")) or as_str(block.get("signature"))
        return rec.event(
            EventType.REASONING,
            block_type,
            thinking or opaque or "",
            content_format=ContentFormat.REASONING,
            encrypted=opaque is not None,
            model=model,
        )
    if block_type in _CALL_BLOCKS:
        return _tool_use(rec, block, block_type, model)
    if block_type.endswith("_tool_result"):
        call_id = rec.text("tool_use_id", block)
        name = recall_call(rec.state.raw, call_id)
        return rec.event(
            EventType.TOOL_RESPONSE,
            block_type,
            message_text(block.get("content")) or json_text(block.get("content")),
            content_format=ContentFormat.TOOL_RESPONSE,
            tool_name=name,
            tool_call_id=call_id,
        )
    return rec.event(EventType.UNKNOWN, block_type, message_text(block), model=model)


def _tool_use(rec: _Record, block: dict[str, Any], block_type: str, model: str | None) -> Event:
    name = rec.text("name", block)
    if name is None:
        rec.out.append(IngestError("invalid_field", f"claude-code {block_type} block has no tool name"))
    call_id = rec.text("id", block)
    remember_call(rec.state.raw, call_id, name)
    tool_name, is_moraine = canonical_tool_name(name) if name else (None, False)
    arguments = block.get("input")
    provenance: dict[str, Any] = {"original_tool_name": name} if name != tool_name else {}
    return rec.event(
        EventType.TOOL_CALL,
        block_type,
        render_call(tool_name or "tool", arguments),
        content_format=ContentFormat.TOOL_CALL,
        tool_name=tool_name,
        tool_call_id=call_id,
        arguments=arguments,
        model=model,
        is_moraine_tool=is_moraine,
        provenance=provenance,
    )


def _system(rec: _Record) -> None:
    subtype = rec.text("subtype") or "system"
    text = message_text(rec.data.get("content")) or subtype.replace("_", " ")
    provenance: dict[str, Any] = {}
    if isinstance(rec.data.get("level"), str):
        provenance["level"] = rec.data["level"]
    if subtype == "compact_boundary":
        metadata = as_dict(rec.data.get("compactMetadata"))
        provenance.update({k: v for k, v in metadata.items() if isinstance(v, str | int | float)})
        rec.event(EventType.COMPACTION, subtype, text, provenance=provenance)
    elif subtype == "turn_duration":
        duration = as_int(rec.data.get("durationMs"))
        ended = rec.state.session_value(rec.session, "turn_end")
        ends = not rec.inline_sidechain
        kind = TerminalKind(ended) if isinstance(ended, str) else TerminalKind.FINAL_RESPONSE
        rec.event(
            EventType.RUNTIME,
            subtype,
            f"turn took {duration} ms" if duration is not None else text,
            terminal=ends,
            terminal_kind=kind if ends else None,
            provenance=provenance,
        )
    else:
        rec.event(EventType.SYSTEM, subtype, text, provenance=provenance)


def _summary(rec: _Record) -> None:
    summary = rec.text("summary") or ""
    leaf = rec.text("leafUuid")
    rec.event(EventType.COMPACTION, None, summary, provenance={"leaf_uuid": leaf} if leaf else {})
    if summary and leaf:
        rec.state.offer_summary(leaf, summary, rec.out)


def _progress(rec: _Record) -> None:
    data = as_dict(rec.data.get("data"))
    data_type = as_str(data.get("type")) or "progress"
    provenance = {"tool_use_id": rec.data["toolUseID"]} if isinstance(rec.data.get("toolUseID"), str) else {}
    rec.event(EventType.SYSTEM, data_type, f"progress: {data_type.replace('_', ' ')}", provenance=provenance)


def _file_history_snapshot(rec: _Record) -> None:
    snapshot = as_dict(rec.data.get("snapshot"))
    if rec.timestamp is None:
        rec.timestamp = rec.read_timestamp(snapshot.get("timestamp"))
    files = snapshot.get("trackedFileBackups")
    count = len(files) if isinstance(files, dict) else 0
    message_id = rec.text("messageId")
    if message_id:
        rec.uuid = rec.uuid or message_id
    rec.event(
        EventType.SYSTEM,
        None,
        f"file history snapshot: {count} tracked file{'s' if count != 1 else ''}",
        provenance={"message_id": message_id, "is_update": rec.data.get("isSnapshotUpdate") is True},
    )


def _queue_operation(rec: _Record) -> None:
    operation = rec.text("operation") or "operation"
    content = message_text(rec.data.get("content"))
    text = f"queue {operation}: {content}" if content else f"queue {operation}"
    rec.event(EventType.RUNTIME, operation, text)


def _attachment(rec: _Record) -> None:
    attachment = as_dict(rec.data.get("attachment"))
    attachment_type = as_str(attachment.get("type")) or "attachment"
    text = message_text(attachment) or attachment_type.replace("_", " ")
    rec.event(EventType.SYSTEM, attachment_type, text)


def _last_prompt(rec: _Record) -> None:
    prompt = rec.text("lastPrompt") or message_text(rec.data.get("prompt"))
    rec.event(EventType.SYSTEM, None, prompt or "last prompt")


_HANDLERS = {
    "user": _user,
    "assistant": _assistant,
    "system": _system,
    "summary": _summary,
    "progress": _progress,
    "file-history-snapshot": _file_history_snapshot,
    "queue-operation": _queue_operation,
    "attachment": _attachment,
    "last-prompt": _last_prompt,
}
