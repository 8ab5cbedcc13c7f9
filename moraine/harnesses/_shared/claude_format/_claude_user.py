"""Claude Code user records: prompts (which start turns), meta and command wrappers, interrupts, tool results."""

from __future__ import annotations

import re
from typing import Any

from moraine.harnesses._shared.calls import recall_call
from moraine.harnesses._shared.claude_format._claude_record import SUBAGENT_TOOLS, ClaudeRecord
from moraine.harnesses._shared.exit import as_exit_code, exit_code_in_header
from moraine.harnesses._shared.text import message_text
from moraine.harnesses._shared.fields import as_dict, as_str, canonical_tool_name
from moraine.harness_api.model import ContentFormat, EventType, IngestError, SessionInfo, TerminalKind

__all__ = ["user_record"]

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
    "<system-reminder>",
    "<ide_opened_file>",
    "<ide_selection>",
    "<ide_diagnostics>",
    "<user-prompt-submit-hook>",
    "<task-notification>",
)

_EXIT_HEADER = re.compile(r"^(?:Error: )?Exit code:? (-?\d{1,10})\b")

_EXIT_KEYS = ("exitCode", "exit_code", "returnCode", "return_code")
_SUBAGENT_TOOLS = frozenset(
    {"Task", "Agent"}
)  # the tool whose call starts a sub-agent (renamed Agent in 2.x)


def user_record(rec: ClaudeRecord) -> None:
    """Normalize a user record: one event per content block."""
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


def _user_text(rec: ClaudeRecord, text: str, block_type: str, meta: bool, *, may_start: bool) -> bool:
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


def _tool_result(rec: ClaudeRecord, block: dict[str, Any], *, single: bool) -> None:
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
    if call_id and tool_name in SUBAGENT_TOOLS:
        agent = as_str(result.get("agentId"))
        prompt = rec.state.task_prompt(call_id)
        if result.get("status") == "async_launched":
            if agent:  # read in when the task notification says it is done
                rec.state.remember_launch(agent, call_id)
        elif agent:
            rec.finished_agents.append((agent, call_id))
        elif prompt:
            rec.finished_prompts.append((prompt, call_id))
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
