"""Cline-family UI messages (``ui_messages.json``) -> normalized events.

A record (from ``reader.ClineTaskReader``) is ``{record, task: {id, history, model}, index, message}``. The message
at index 0 (``say: text`` or ``task``) is the user's task; ``say: user_feedback`` is a later prompt. The assistant
speaks through ``say``: ``text`` (a response), ``reasoning``, ``completion_result`` (the task's answer: the turn's
final answer); it asks through ``ask``: ``followup`` (a question to the user, which ends its turn), ``tool``
(a JSON payload ``{tool, path, diff, content, ...}``: a file tool call; read tools carry their result in
``content``), ``command`` (a shell command, answered by the ``command_output`` messages after it),
``use_mcp_server`` (``{serverName, toolName, arguments}``, answered by ``mcp_server_response``). Auto-approved tools
and commands are recorded as ``say`` with the same names. ``api_req_started`` carries the request's token counts
(they go to the next model event) and its prompt, whose environment details name the working directory and
(Roo Code, Kilo) the model. ``diff_error`` and ``rooignore_error`` fail the tool call before them; ``subtask_result``
answers a ``newTask`` delegation; ``condense_context`` and ``sliding_window_truncation`` are compactions. Messages
that are bookkeeping (checkpoints, retries, resume prompts) are skipped. Calls carry no ids in the trace: a call's
id is ``ui-<message index>``. A task folder without UI messages is read from its API history (``api_history``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, ClassVar

from moraine.harnesses._shared.cline_family.api_history import API_RECORD, api_message
from moraine.harnesses._shared.cline_family.reader import MESSAGE_RECORD
from moraine.harnesses._shared.events import RecordEvents
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.records import TaggedAdapter, TaggedReader
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_int, as_str, parse_json_string, parse_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo, TokenUsage

__all__ = ["ClineFamilyAdapter"]

# The prompt of a request that follows a tool opens with that tool's result: ``[apply_diff for 'a.py'] Result:``.
_RESULT = re.compile(r"\[[A-Za-z_]+(?: for [^\]\n]*)?\] Result:")
_CWD = re.compile(r"Current (?:Working|Workspace) Directory \(([^)\n]+)\)")
_MODEL = re.compile(r"#\s*Current\s+Mode.*?<model>\s*([^<>\s][^<>]*?)\s*</model>", re.DOTALL | re.IGNORECASE)
# Read tools whose payload ``content`` is the tool's result, not its input (lower-cased names).
_RESULT_IN_PAYLOAD = frozenset(
    {"readfile", "listfilestoplevel", "listfilesrecursive", "listcodedefinitionnames", "searchfiles"}
)
_SKIPPED = frozenset(
    {
        "api_req_deleted",
        "api_req_retried",
        "api_req_retry_delayed",
        "checkpoint_saved",
        "mcp_server_request_started",
        "shell_integration_warning",
        "resume_task",
        "resume_completed_task",
        "completion_result_ask",
        "browser_action_launch_result",
    }
)
_COMPACTIONS = frozenset({"condense_context", "sliding_window_truncation"})
_SYSTEM = frozenset({"error", "condense_context_error", "api_req_failed", "mistake_limit_reached"})

Handler = Callable[["_Message"], list[Event]]


class _Message:
    """One UI message being normalized: its fields, its events' shared fields and the stream state."""

    def __init__(self, data: dict[str, Any], message: dict[str, Any], ctx: StreamContext, out: list[Emitted]):
        task = as_dict(data.get("task"))
        self.session = as_str(task.get("id")) or ctx.path.parent.name
        self.index = data.get("index")
        self.message = message
        self.state = ctx.state
        text = message.get("text")
        self.text: str = text if isinstance(text, str) else ""
        self.model = as_str(self.state.get("model")) or as_str(task.get("model"))
        timestamp, error = parse_timestamp(message.get("ts"))
        if error is not None:
            out.append(error)
        kind = {"type": message.get("type"), "say": message.get("say"), "ask": message.get("ask")}
        provenance = {k: v for k, v in kind.items() if v is not None}
        self.base = RecordEvents(
            self.session, timestamp, as_str(self.state.get("cwd")), provenance=provenance
        )

    def model_event(self, event: Event) -> Event:
        """Give ``event`` the token usage of the API request that produced it, if not given to an event yet."""
        usage = self.state.pop("usage", None)
        if isinstance(usage, dict):
            event.usage = TokenUsage(**{k: v for k, v in usage.items() if k in _USAGE_FIELDS})
        return event

    def call(self, name: str | None, arguments: Any, pending: str) -> Event:
        """Return a tool call answered later (its id is remembered under ``pending``)."""
        call_id = f"ui-{self.index}"
        self.state[pending] = [call_id, name]
        self.state["last_call"] = [call_id, name]
        return self.model_event(self.base.tool_call(name, call_id, arguments, self.model))

    def answer_pending(
        self, pending: str, text: str, keep: bool = False, quiet: bool = False, **fields: Any
    ) -> list[Event]:
        """Return the response to the call remembered under ``pending``.

        When no call waits the text is a system event, or nothing when ``quiet``.
        """
        waiting = self.state.get(pending) if keep else self.state.pop(pending, None)
        if not isinstance(waiting, list) or len(waiting) != 2:
            return [self.base.event(EventType.SYSTEM, text=text)] if text and not quiet else []
        call_id, name = waiting
        return [self.base.canonical_response(name, call_id, text, **fields)]


_USAGE_FIELDS = frozenset({"input", "output", "cache_read", "cache_write"})


def _user(m: _Message) -> list[Event]:
    images = len(m.message["images"]) if isinstance(m.message.get("images"), list) else 0
    text = m.text or " ".join(["[image]"] * images)
    return [m.base.event(EventType.USER_INPUT, text=text, starts_turn=bool(text.strip()))]


def _said(m: _Message) -> list[Event]:
    if m.index == 0:
        return _user(m)
    return _reasoning(m) + ([m.model_event(m.base.answer(m.text, m.model))] if m.text.strip() else [])


def _reasoning(m: _Message) -> list[Event]:
    thought = as_str(m.message.get("reasoning")) or (m.text if m.message.get("say") == "reasoning" else "")
    return [m.model_event(m.base.reasoning(thought, m.model))] if thought and thought.strip() else []


def _completion(m: _Message) -> list[Event]:
    return [m.model_event(m.base.answer(m.text, m.model, final=True))] if m.text.strip() else []


def _followup(m: _Message) -> list[Event]:
    payload = as_dict(parse_json_string(m.text))
    question = as_str(payload.get("question")) or m.text
    return [m.model_event(m.base.answer(question, m.model, final=True))] if question.strip() else []


def _tool(m: _Message) -> list[Event]:
    payload = parse_json_string(m.text)
    if not isinstance(payload, dict) or not as_str(payload.get("tool")):
        return [m.base.event(EventType.SYSTEM, text=m.text)] if m.text else []
    name = payload["tool"]
    arguments = dict(payload)
    result = arguments.pop("content", None) if name.lower() in _RESULT_IN_PAYLOAD else None
    pending = "task_call" if name == "newTask" else "tool_call"
    call = m.call(name, arguments, pending)
    if result is None:
        return [call]
    m.state.pop(pending, None)
    return [call, m.base.response_to(call, result if isinstance(result, str) else json.dumps(result))]


def _command(m: _Message) -> list[Event]:
    command = m.text.strip()
    return [m.call("execute_command", {"command": command}, "command")] if command else []


def _command_output(m: _Message) -> list[Event]:
    return m.answer_pending("command", m.text, keep=True)


def _mcp(m: _Message) -> list[Event]:
    payload = as_dict(parse_json_string(m.text))
    name = as_str(payload.get("toolName")) or as_str(payload.get("type")) or "use_mcp_server"
    arguments = {**payload, "arguments": parse_json_string(payload.get("arguments"))} if payload else m.text
    return [m.call(name, arguments, "mcp_call")]


def _mcp_response(m: _Message) -> list[Event]:
    return m.answer_pending("mcp_call", m.text)


def _subtask(m: _Message) -> list[Event]:
    return m.answer_pending("task_call", m.text)


def _tool_error(m: _Message) -> list[Event]:
    return m.answer_pending("tool_call", m.text, tool_error=True)


def _compaction(m: _Message) -> list[Event]:
    return [m.base.event(EventType.COMPACTION, text=m.text)]


def _system(m: _Message) -> list[Event]:
    return [m.base.event(EventType.SYSTEM, text=m.text)] if m.text else []


def _api_request(m: _Message) -> list[Event]:
    payload = as_dict(parse_json_string(m.text))
    counts = {
        "input": as_int(payload.get("tokensIn")),
        "output": as_int(payload.get("tokensOut")),
        "cache_read": as_int(payload.get("cacheReads")),
        "cache_write": as_int(payload.get("cacheWrites")),
    }
    if any(value is not None for value in counts.values()):
        m.state["usage"] = counts
    request = as_str(payload.get("request")) or ""
    result = _RESULT.match(request)
    events = m.answer_pending("tool_call", request[result.end() :].strip(), quiet=True) if result else []
    cwd = _CWD.search(request)
    if cwd:
        m.state["cwd"] = cwd.group(1).strip()
    model = _MODEL.search(request)
    if model:
        m.state["model"] = model.group(1)
    return events


_SAY: dict[str, Handler] = {
    "task": _user,
    "text": _said,
    "user_feedback": _user,
    "reasoning": _reasoning,
    "completion_result": _completion,
    "tool": _tool,
    "command": _command,
    "command_output": _command_output,
    "use_mcp_server": _mcp,
    "mcp_server_response": _mcp_response,
    "subtask_result": _subtask,
    "diff_error": _tool_error,
    "rooignore_error": _tool_error,
    "user_feedback_diff": _system,
    "api_req_started": _api_request,
    "codebase_search_result": _said,
    **{kind: _compaction for kind in _COMPACTIONS},
    **{kind: _system for kind in _SYSTEM},
}
_ASK: dict[str, Handler] = {
    "followup": _followup,
    "tool": _tool,
    "command": _command,
    "execute_command": _command,
    "command_output": _command_output,
    "use_mcp_server": _mcp,
    **{kind: _system for kind in _SYSTEM},
}


def _ui_message(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    message = data.get("message")
    if not isinstance(message, dict):
        return [IngestError("malformed_record", f"UI message {data.get('index')} is not a JSON object")]
    out: list[Emitted] = []
    m = _Message(data, message, ctx, out)
    out.extend(_announce(data, m))
    say, ask = as_str(message.get("say")), as_str(message.get("ask"))
    kind = say if message.get("type") == "say" else ask
    if kind is None or kind in _SKIPPED or (message.get("type") == "ask" and kind == "completion_result"):
        return out
    handler = (_SAY if message.get("type") == "say" else _ASK).get(kind)
    if handler is None:
        out.append(
            IngestError("unknown_record", f"UI message {data.get('index')}: {message.get('type')} {kind}")
        )
        return out
    out.extend(handler(m))
    return out


def _announce(data: dict[str, Any], m: _Message) -> list[Emitted]:
    """Return the task's metadata when it is new or changed (the history item, the mined cwd and model)."""
    history = as_dict(as_dict(data.get("task")).get("history"))
    cwd = as_str(history.get("workspace")) or as_str(m.state.get("cwd"))
    if cwd and not m.state.get("cwd"):
        m.state["cwd"] = cwd
    m.base.cwd = as_str(m.state.get("cwd"))
    parent = as_str(history.get("parentTaskId"))
    if not changed(m.state, "info", [m.session, cwd, m.model, parent]):
        return []
    started, _ = parse_timestamp(history.get("ts") or m.state.setdefault("started", m.message.get("ts")))
    return [SessionInfo(session=m.session, cwd=cwd, model=m.model, started_at=started, parent_session=parent)]


class ClineFamilyAdapter(TaggedAdapter):
    """Normalize Cline-family UI messages (a harness of the family subclasses it with its own name)."""

    harness: str
    kinds: ClassVar[dict[str, TaggedReader]] = {MESSAGE_RECORD: _ui_message, API_RECORD: api_message}
    untagged = "not a Cline-family UI message record"
