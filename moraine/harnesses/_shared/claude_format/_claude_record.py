"""The Claude Code line being normalized: which session it belongs to, the fields its events share, typed reads.

A record's session is its ``sessionId``, except that a record continuing a chain (its ``parentUuid`` a record this
file gave to another session) stays in that session: Claude Code may change ``sessionId`` mid-file while one
conversation goes on, and the answer to a prompt belongs to the prompt's session. In a sub-agent transcript (under
``subagents/`` or named ``agent-*``) read by itself (its parent transcript gone) the session is
``<sessionId>:<agentId>``, announced once with its parent. The
first record of a session also reports its start, and later records report a changed cwd or slug.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from moraine.harnesses._shared.claude_format._claude_state import ClaudeState
from moraine.harnesses._shared.events import RecordEvents
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["SUBAGENT_TOOLS", "ClaudeRecord", "file_session"]

# The tool whose call starts a sub-agent (``Task``, renamed ``Agent`` in later releases).
SUBAGENT_TOOLS = frozenset({"Task", "Agent"})


class ClaudeRecord:
    """One transcript line being normalized: its session, shared fields and what it has emitted."""

    def __init__(self, ctx: StreamContext, data: dict[str, Any], kind: str) -> None:
        self.data = data
        self.kind = kind
        self.out: list[Emitted] = []
        # Sub-agents this record says are done: (agent id, Task call id), read in by the adapter.
        self.finished_agents: list[tuple[str, str | None]] = []
        # Sub-agents done whose result names no agent: (the Task call's prompt, Task call id).
        self.finished_prompts: list[tuple[str, str]] = []
        self.state = ClaudeState(ctx.state)
        self.timestamp = self.read_timestamp(data.get("timestamp"))
        self.uuid = self.text("uuid")
        agent = _subagent_id(ctx, data)
        chained = None if agent else self.state.chain_session(self.text("parentUuid"))
        recorded = chained or self.text("sessionId")
        parent = recorded or self.state.last_session or file_session(ctx)
        self.state.last_session = parent
        self.session = f"{parent}:{agent}" if agent else parent
        self.subagent = agent is not None
        sidechain = data.get("isSidechain")
        self.sidechain = sidechain is True or self.subagent
        # Sidechain records inside the main transcript belong to the main session but never shape its turns.
        self.inline_sidechain = self.sidechain and not self.subagent
        self.cwd = self.text("cwd") or self.state.session_value(self.session, "cwd")
        self._announce(parent if agent else None)

    def read_timestamp(self, value: Any) -> datetime | None:
        """Return the instant ``value`` names, reporting an unreadable one."""
        return read_timestamp(value, self.out)

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
        """Return a string field of the record (or ``container``), reporting a value of the wrong type."""
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
        """Emit an event of this record with the shared fields and provenance filled in."""
        provenance: dict[str, Any] = {"record_type": self.kind}
        if payload_type is not None:
            provenance["payload_type"] = payload_type
        for key, name in (("uuid", "uuid"), ("parentUuid", "parent_uuid"), ("gitBranch", "git_branch")):
            value = self.data.get(key)
            if isinstance(value, str) and value:
                provenance[name] = value
        if self.subagent and isinstance(self.data.get("agentId"), str):
            provenance["agent_id"] = self.data["agentId"]
        record = RecordEvents(self.session, self.timestamp, self.cwd, self.sidechain, provenance)
        event = record.event(type_, text=text, **fields)
        self.out.append(event)
        return event

    def message(self) -> dict[str, Any] | None:
        """Return the record's message object, reporting a missing or ill-typed one."""
        message = self.data.get("message")
        if isinstance(message, dict):
            return message
        self.out.append(IngestError("invalid_field", f"claude-code {self.kind} record has no message object"))
        return None


def file_session(ctx: StreamContext) -> str:
    """Return the session a transcript's location names (its file name, or a sub-agent's session folder)."""
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
