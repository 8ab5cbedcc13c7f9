"""A VS Code chat request -> normalized events (VS Code Copilot chat, Windsurf and other VS Code builds keep them).

Records come from ``reader.VscodeChatReader``: ``{record, session: {sessionId, creationDate, customTitle, indexTitle, version},
cwd, index, request}``. A request is a user prompt (``message.text``, at ``timestamp`` ms) and the parts of the
response in display order: markdown text (parts without ``kind``, or ``markdownContent``), ``inlineReference``
(a file named in the text), ``thinking`` (reasoning), ``toolInvocationSerialized`` (a tool call: ``toolId``,
``toolCallId``, the invocation message, ``toolSpecificData`` of a terminal command, ``resultDetails`` with the
input and output; answered once ``isComplete``), ``textEditGroup`` (the file an edit changed, credited to the tool
call before it). A request whose ``result`` is stored has finished: its last text is the turn's final answer, and
``result.metadata`` gives the resolved model and the prompt and output token counts. Other part kinds (progress,
confirmations, undo stops, code block links) are not conversation and are skipped.
"""

from __future__ import annotations

import re
from typing import Any

from moraine.harnesses._shared.vscode import file_uri_path
from moraine.harnesses._shared.events import RecordEvents, mark_final_answer
from moraine.harnesses._shared.memory import changed
from moraine.harnesses._shared.text import render_call
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import (
    as_dict,
    as_int,
    as_list,
    as_str,
    parse_json_string,
    parse_timestamp,
)
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo, TokenUsage

__all__ = ["chat_request", "request_events"]

_TEXT_KINDS = frozenset({None, "markdownContent", "markdownVuln"})
_FILE_LINK = re.compile(r"\((file://[^)\s]+)\)")


def request_events(data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
    meta = as_dict(data.get("session"))
    return chat_request(meta, as_str(data.get("cwd")), data.get("request"), ctx.state, data.get("index"))


def chat_request(
    meta: dict[str, Any], cwd: str | None, request: Any, memory: dict[str, Any], index: Any
) -> list[Emitted]:
    """Return the events of one request of a VS Code chat session (``meta``: the session's own fields).

    ``memory`` keeps what was announced of the session (a JSON object the caller keeps per session).
    """
    session = as_str(meta.get("sessionId"))
    if not session or not isinstance(request, dict):
        return [IngestError("malformed_record", f"chat request {index} is not a JSON object")]
    out: list[Emitted] = []
    started, _ = parse_timestamp(meta.get("creationDate"))
    title = as_str(meta.get("customTitle")) or as_str(meta.get("indexTitle"))
    result = request.get("result")
    metadata = as_dict(as_dict(result).get("metadata"))
    model = as_str(metadata.get("resolvedModel")) or _model_id(request.get("modelId"))
    if changed(memory, "info", [session, title, cwd, model]):
        out.append(SessionInfo(session=session, title=title, cwd=cwd, model=model, started_at=started))
    timestamp, error = parse_timestamp(request.get("timestamp"))
    if error is not None:
        out.append(error)
    base = RecordEvents(session, timestamp, cwd, provenance={"request_id": request.get("requestId")})
    prompt = as_str(as_dict(request.get("message")).get("text")) or ""
    if prompt.strip():
        out.append(base.event(EventType.USER_INPUT, text=prompt, starts_turn=True))
    events = _response(as_list(request.get("response")), model, base)
    if isinstance(result, dict) and "errorDetails" not in result:
        mark_final_answer(events)
    answers = [e for e in events if e.type is EventType.ASSISTANT_RESPONSE] or events
    usage = _usage(metadata)
    if usage is not None and answers:
        answers[-1].usage = usage
    out.extend(events)
    return out


def _model_id(value: Any) -> str | None:
    model = as_str(value)
    return model.removeprefix("copilot/") if model else None


def _usage(metadata: dict[str, Any]) -> TokenUsage | None:
    prompt, output = as_int(metadata.get("promptTokens")), as_int(metadata.get("outputTokens"))
    if prompt is None and output is None:
        return None
    return TokenUsage(input=prompt, output=output)


def _response(parts: list[Any], model: str | None, base: RecordEvents) -> list[Event]:
    """Return the events of a response's parts in order (adjacent text fragments make one response)."""
    events: list[Event] = []
    text: list[str] = []
    last_call: Event | None = None

    def flush() -> None:
        joined = "".join(text).strip()
        text.clear()
        if joined:
            events.append(base.answer(joined, model))

    for part in parts:
        if not isinstance(part, dict):
            continue
        kind = part.get("kind")
        if kind is not None and not isinstance(kind, str):
            continue
        if kind in _TEXT_KINDS:
            text.append(_markdown(part.get("value", part.get("content"))))
        elif kind == "inlineReference":
            reference = part.get("inlineReference")
            named = file_uri_path(reference) or as_str(as_dict(reference).get("name"))
            text.append(f"`{named}`" if named else "")
        elif kind == "thinking":
            flush()
            thought = "".join(v for v in as_list(part.get("value")) if isinstance(v, str))
            thought = as_str(part.get("value")) or thought
            if thought and thought.strip():
                events.append(base.reasoning(thought, model))
        elif kind == "toolInvocationSerialized":
            flush()
            call = base.tool_call(
                as_str(part.get("toolId")), as_str(part.get("toolCallId")), _arguments(part), model
            )
            events.append(call)
            last_call = call
            if part.get("isComplete") is True:
                events.append(_tool_result(part, call, base))
        elif kind == "textEditGroup":
            edited = file_uri_path(part.get("uri"))
            if edited is None:
                continue
            if last_call is not None and isinstance(last_call.arguments, dict):
                paths = last_call.arguments.setdefault("paths", [])
                if edited not in paths:
                    paths.append(edited)
                    last_call.text = render_call(last_call.tool_name or "unknown", last_call.arguments)
            else:
                flush()
                events.append(base.tool_call("textEditGroup", None, {"path": edited}, model))
    flush()
    return events


def _markdown(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("value")
    return value if isinstance(value, str) else ""


def _arguments(part: dict[str, Any]) -> dict[str, Any]:
    """Return what the trace keeps of a tool call's input: its message, command, files and recorded input."""
    arguments: dict[str, Any] = {}
    message = _markdown(part.get("invocationMessage")) or _markdown(part.get("pastTenseMessage"))
    if message:
        arguments["message"] = message
    specific = as_dict(part.get("toolSpecificData"))
    command = as_str(as_dict(specific.get("commandLine")).get("original")) or as_str(specific.get("command"))
    if command:
        arguments["command"] = command
    paths: list[str] = []
    for key in ("invocationMessage", "pastTenseMessage"):
        paths.extend(_linked_files(part.get(key)))
    if paths:
        arguments["paths"] = list(dict.fromkeys(paths))
    recorded = parse_json_string(as_dict(part.get("resultDetails")).get("input"))
    if recorded not in (None, ""):
        arguments["input"] = recorded
    return arguments


def _linked_files(message: Any) -> list[str]:
    """Return the local files a markdown message links to (its ``uris`` table and ``(file://...)`` links)."""
    found = [file_uri_path(uri) for uri in as_dict(as_dict(message).get("uris")).values()]
    found.extend(file_uri_path(link) for link in _FILE_LINK.findall(_markdown(message)))
    return [path for path in found if path]


def _tool_result(part: dict[str, Any], call: Event, base: RecordEvents) -> Event:
    details = as_dict(part.get("resultDetails"))
    output = [as_str(item.get("value")) for item in as_list(details.get("output")) if isinstance(item, dict)]
    text = "\n".join(value for value in output if value) or _markdown(part.get("pastTenseMessage"))
    failed = details.get("isError") if isinstance(details.get("isError"), bool) else None
    return base.response_to(call, text, tool_error=failed)
