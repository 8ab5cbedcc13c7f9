"""The checkpointed memory of a Claude Code transcript stream: sessions seen, titles, and summaries awaiting a leaf.

Everything lives in the stream's JSON state dict (bounded), so a stream resumes mid-file with the same answers.
"""

from __future__ import annotations

from typing import Any

from moraine.harnesses._shared.memory import remember
from moraine.harness_api.model import Emitted, SessionInfo

__all__ = ["ClaudeState"]

_SESSION_LIMIT = 64
_UUID_LIMIT = 512
_PENDING_LIMIT = 32
_SUMMARY_RANK = 2
_PROMPT_LIMIT = 64
_PROMPT_CHARS = 20_000


class ClaudeState:
    """Typed access to a Claude Code stream's state dict."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    @property
    def last_session(self) -> str | None:
        value = self.raw.get("session")
        return value if isinstance(value, str) else None

    @last_session.setter
    def last_session(self, value: str) -> None:
        self.raw["session"] = value

    def _table(self, key: str) -> dict[str, Any]:
        table = self.raw.get(key)
        if not isinstance(table, dict):
            table = {}
            self.raw[key] = table
        return table

    def session_value(self, session: str, key: str) -> Any:
        """Return what this stream remembers about ``session`` under ``key`` (None when nothing)."""
        entry = self._table("sessions").get(session)
        return entry.get(key) if isinstance(entry, dict) else None

    def set_session_value(self, session: str, key: str, value: Any) -> None:
        """Remember ``value`` for ``session`` under ``key`` (forgetting the oldest session past the bound)."""
        sessions = self._table("sessions")
        entry = sessions.get(session)
        if not isinstance(entry, dict):
            entry = {}
            sessions[session] = entry
            while len(sessions) > _SESSION_LIMIT:
                del sessions[next(iter(sessions))]
        entry[key] = value

    def apply_title(
        self, session: str, title: str, rank: int, out: list[Emitted], summary: str | None = None
    ) -> None:
        """Emit ``title`` for ``session`` unless a title of a higher rank is already known."""
        current = self.session_value(session, "title_rank")
        if isinstance(current, int) and current > rank:
            if summary is not None:
                out.append(SessionInfo(session=session, summary=summary))
            return
        self.set_session_value(session, "title_rank", rank)
        out.append(SessionInfo(session=session, title=title, summary=summary))

    def remember_prompt(self, call_id: str, prompt: object) -> None:
        """Remember the prompt of a Task call (to find its sub-agent when the result names none)."""
        if isinstance(prompt, str) and prompt.strip():
            remember(self._table("task_prompts"), call_id, prompt[:_PROMPT_CHARS], _PROMPT_LIMIT)

    def task_prompt(self, call_id: str) -> str | None:
        """Return the prompt of the Task call ``call_id``, if remembered."""
        prompt = self._table("task_prompts").get(call_id)
        return prompt if isinstance(prompt, str) else None

    def remember_launch(self, agent: str, call_id: str) -> None:
        """Remember the Task call that launched background sub-agent ``agent``."""
        remember(self._table("launches"), agent, call_id, _PROMPT_LIMIT)

    def launch(self, agent: str) -> str | None:
        """Return the Task call that launched background sub-agent ``agent``, if remembered."""
        call = self._table("launches").get(agent)
        return call if isinstance(call, str) else None

    def hold(self, record: dict[str, Any], limit: int) -> None:
        """Keep a record for the session the file turns out to hold (the oldest dropped past ``limit``)."""
        held = self.raw.get("held")
        held = held if isinstance(held, list) else []
        held.append(record)
        self.raw["held"] = held[-limit:]

    def release(self) -> list[dict[str, Any]]:
        """Return (and forget) the records kept by ``hold``."""
        held = self.raw.pop("held", None)
        return [r for r in held if isinstance(r, dict)] if isinstance(held, list) else []

    def chain_session(self, parent_uuid: str | None) -> str | None:
        """Return the session this file gave the record ``parent_uuid`` (None when it is not a recent record)."""
        recent = self.raw.get("uuids")
        owner = recent.get(parent_uuid) if parent_uuid and isinstance(recent, dict) else None
        return owner if isinstance(owner, str) else None

    def saw_uuid(self, uuid: str, session: str, out: list[Emitted]) -> None:
        """Remember that ``uuid`` is a record of ``session`` and settle any summary waiting for that leaf."""
        remember(self._table("uuids"), uuid, session, _UUID_LIMIT)
        pending = self.raw.get("pending_summaries")
        if isinstance(pending, dict) and uuid in pending:
            summary = pending.pop(uuid)
            if isinstance(summary, str):
                self.apply_title(session, summary, _SUMMARY_RANK, out, summary=summary)

    def offer_summary(self, leaf: str, summary: str, out: list[Emitted]) -> None:
        """Title the session that owns ``leaf`` now, or once that record shows up later in this file."""
        recent = self.raw.get("uuids")
        owner = recent.get(leaf) if isinstance(recent, dict) else None
        if isinstance(owner, str):
            self.apply_title(owner, summary, _SUMMARY_RANK, out, summary=summary)
            return
        remember(self._table("pending_summaries"), leaf, summary, _PENDING_LIMIT)
