"""Claude Code transcripts (``~/.claude/projects/<project>/<session>.jsonl``) -> normalized events.

Each line is a record ``{"type", "sessionId", "uuid", "parentUuid", "timestamp", "cwd", "gitBranch", "isSidechain",
"message": {"role", "model", "content", "stop_reason"}, ...}``; a message's content is a string or a list of blocks
(text, thinking, tool_use, tool_result, image, ...) and each block becomes one event. Decisions:

- Sessions. A record's ``sessionId``, unless its ``parentUuid`` is a record this file gave another session (a
  ``sessionId`` changed mid-conversation: the answer stays with its prompt). A sub-agent transcript (a file under
  ``subagents/`` or named ``agent-*``) is read into its parent's session when the Task call that started it is done,
  as sidechain events of that turn (``_claude_subagent``); only one whose parent transcript is gone is a session of
  its own, ``<sessionId>:<agentId>`` whose parent is ``sessionId``. Sidechain records inside the main transcript
  stay in the main session, flagged ``sidechain``, and never start or end its turns. Summaries and file-history
  snapshots before the file's first other record wait for it and join its session: a file holding nothing else
  (Claude Code leaves some) is no session.
- Turns. Real user text starts a turn; tool results, meta messages (``isMeta``, ``<command-name>`` wrappers, local
  command output) and compaction summaries do not. ``[Request interrupted by user...]`` ends the turn (interrupted).
- Final answers. The last text block of an assistant message that does not go on to a tool call is a final-answer
  candidate (the turn's final response is its last candidate); when the message records a ``stop_reason`` other
  than ``tool_use`` that block is also the terminal event. A ``system``/``turn_duration`` record ends the turn too.
  Real transcripts (1.x and 2.x) leave ``stop_reason`` null on every record, so most turns end by the generic rules:
  the next user prompt ends a turn (``moraine.ingest.sessions``) and an answer left idle ends the newest one
  (``moraine.store.reads.settled``); the candidate is then the final response.
- Titles. ``custom-title`` beats ``summary`` beats ``ai-title``; a summary counts for this transcript only when its
  ``leafUuid`` is a record of this file (summaries naming other transcripts' leaves stay compaction events).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from moraine.harnesses._shared.claude_format._claude_assistant import assistant_record
from moraine.harnesses._shared.claude_format._claude_record import ClaudeRecord, file_session
from moraine.harnesses._shared.claude_format._claude_state import ClaudeState
from moraine.harnesses._shared.claude_format._claude_subagent import (
    agent_by_prompt,
    finished_notification,
    first_fold,
    is_subagent_file,
    parent_transcript,
    subagent_file,
    subagent_records,
)
from moraine.harnesses._shared.claude_format._claude_user import user_record
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.text import message_text
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_str
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, TerminalKind

__all__ = ["ClaudeCodeAdapter"]

_TITLE_RANK = {"ai-title": 1, "summary": 2, "custom-title": 3}
# Records that belong to no conversation by themselves: a file of nothing else (Claude Code writes some) is no session.
_UNOWNED = frozenset({"summary", "file-history-snapshot"})
_HELD_LIMIT = 64


class ClaudeCodeAdapter(ObjectAdapter):
    """Normalize Claude Code transcript records (see the module docstring for the decisions)."""

    harness = "claude-code"
    guard_depth = True
    # Sub-agent transcripts read into their parent's session (``_claude_subagent``), not as sessions of their own.
    fold_subagents: ClassVar[bool] = True

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one transcript line."""
        kind = data.get("type")
        if not isinstance(kind, str):
            return [IngestError("malformed_record", "claude-code record has no string 'type'")]
        if (
            self.fold_subagents
            and is_subagent_file(ctx.path)
            and parent_transcript(ctx.path, as_str(data.get("sessionId")))
        ):
            return []  # read into its parent's session by the parent's stream (``_claude_subagent``)
        state = ClaudeState(ctx.state)
        if state.last_session is None:
            if kind in _UNOWNED and not isinstance(data.get("sessionId"), str):
                state.hold(data, _HELD_LIMIT)  # no conversation yet: this file may never be a session
                return []
            held = state.release()
            if held:
                state.last_session = _owner(data, ctx)
                out = [item for record in held for item in self._record(record, record["type"], ctx)]
                return out + self._record(data, kind, ctx)
        return self._record(data, kind, ctx)

    def _record(self, data: dict[str, Any], kind: str, ctx: StreamContext) -> list[Emitted]:
        rec = ClaudeRecord(ctx, data, kind)
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
        if self.fold_subagents and not is_subagent_file(ctx.path):
            for prompt, prompted in rec.finished_prompts:
                found = agent_by_prompt(ctx.path, prompt)
                if found:
                    rec.finished_agents.append((found, prompted))
            for agent, call in rec.finished_agents:
                rec.out.extend(self._subagent(rec.session, agent, call, ctx))
        return rec.out

    def _subagent(self, session: str, agent: str, call: str | None, ctx: StreamContext) -> list[Emitted]:
        """Return the events of sub-agent ``agent``'s transcript as sidechain events of ``session`` (once)."""
        if not first_fold(ctx.state, agent):
            return []
        path = subagent_file(ctx.path, agent)
        if path is None or is_subagent_file(ctx.path):
            return []
        # The sub-agent's own stream state, sharing the parent's record of agents read (nested agents read once).
        child = StreamContext(
            ctx.path, ctx.source, {"session": session, "subagents_folded": ctx.state["subagents_folded"]}
        )
        out: list[Emitted] = []
        for record in subagent_records(path):
            if isinstance(record, IngestError):
                out.append(record)
                continue
            kind = record.get("type")
            if not isinstance(kind, str):
                continue
            for item in self._record({**record, "sessionId": session, "isSidechain": True}, kind, child):
                if isinstance(item, Event):
                    item.provenance.update(agent_id=agent, parent_tool_call_id=call)
                    out.append(item)
                elif isinstance(item, IngestError):
                    out.append(item)
        return out


def _owner(data: dict[str, Any], ctx: StreamContext) -> str:
    """Return the session of the first record that has one (the held records before it are its session's)."""
    recorded = data.get("sessionId")
    return recorded if isinstance(recorded, str) and recorded else file_session(ctx)


def _system(rec: ClaudeRecord) -> None:
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


def _summary(rec: ClaudeRecord) -> None:
    summary = rec.text("summary") or ""
    leaf = rec.text("leafUuid")
    rec.event(EventType.COMPACTION, None, summary, provenance={"leaf_uuid": leaf} if leaf else {})
    if summary and leaf:
        rec.state.offer_summary(leaf, summary, rec.out)


def _progress(rec: ClaudeRecord) -> None:
    data = as_dict(rec.data.get("data"))
    data_type = as_str(data.get("type")) or "progress"
    provenance = {"tool_use_id": rec.data["toolUseID"]} if isinstance(rec.data.get("toolUseID"), str) else {}
    rec.event(EventType.SYSTEM, data_type, f"progress: {data_type.replace('_', ' ')}", provenance=provenance)


def _file_history_snapshot(rec: ClaudeRecord) -> None:
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


def _queue_operation(rec: ClaudeRecord) -> None:
    operation = rec.text("operation") or "operation"
    content = message_text(rec.data.get("content"))
    finished = finished_notification(content)
    if finished is not None:
        agent, call = finished
        rec.finished_agents.append((agent, call or rec.state.launch(agent)))
    text = f"queue {operation}: {content}" if content else f"queue {operation}"
    rec.event(EventType.RUNTIME, operation, text)


def _attachment(rec: ClaudeRecord) -> None:
    attachment = as_dict(rec.data.get("attachment"))
    attachment_type = as_str(attachment.get("type")) or "attachment"
    text = message_text(attachment) or attachment_type.replace("_", " ")
    rec.event(EventType.SYSTEM, attachment_type, text)


def _last_prompt(rec: ClaudeRecord) -> None:
    prompt = rec.text("lastPrompt") or message_text(rec.data.get("prompt"))
    rec.event(EventType.SYSTEM, None, prompt or "last prompt")


_HANDLERS: dict[str, Callable[[ClaudeRecord], None]] = {
    "user": user_record,
    "assistant": assistant_record,
    "system": _system,
    "summary": _summary,
    "progress": _progress,
    "file-history-snapshot": _file_history_snapshot,
    "queue-operation": _queue_operation,
    "attachment": _attachment,
    "last-prompt": _last_prompt,
}
