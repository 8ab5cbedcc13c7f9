"""gptme (source ``gptme``): ``conversation.jsonl`` lines -> normalized events.

Each line is a message ``{role: system|user|assistant|tool, content, timestamp, hide, pinned, metadata: {model,
usage: {input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens}, cost}}``; the conversation's
folder name is the session id. gptme's default tool format writes a tool use as a fenced block in the assistant's
reply whose info string names the tool and its argument (```` ```save src/app.py ````, ```` ```patch src/app.py
````, ```` ```append notes.md ````, ```` ```shell ````, ```` ```ipython ````): each such block becomes a tool call
(the file as ``path``, the body as ``content`` or ``command``/``code``), and the next tool (or, while calls wait,
system) messages are their outputs, in order. A user message opens a turn; an assistant reply without tool blocks
ends it as the answer.
"""

from __future__ import annotations

import re
from typing import Any

from moraine.harnesses._shared.events import RecordEvents, end_message
from moraine.harnesses._shared.records import ObjectAdapter
from moraine.harnesses._shared.usage import UsageKeys, token_usage
from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.fields import as_dict, as_list, as_str, read_timestamp
from moraine.harness_api.model import Emitted, Event, EventType, IngestError, SessionInfo

__all__ = ["GptmeAdapter"]

# ```<tool> [argument]\n<body>\n``` at the start of a line; the body ends at the first closing fence.
_BLOCK = re.compile(r"^```([A-Za-z_]+)(?:[ \t]+([^\n]*))?\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
# Tool -> (key of its argument, key of its body).
_TOOLS = {
    "save": ("path", "content"),
    "append": ("path", "content"),
    "patch": ("path", "patch"),
    "shell": (None, "command"),
    "ipython": (None, "code"),
}
_PENDING = "pending"
_LIMIT = 64

# Token counts as its trace names them (the reasoning count, where any, under the default key).
_USAGE = UsageKeys(
    input=("input_tokens",),
    output=("output_tokens",),
    cache_read=("cache_read_tokens",),
    cache_write=("cache_creation_tokens",),
)


class GptmeAdapter(ObjectAdapter):
    """Normalize gptme conversation lines."""

    harness = "gptme"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return the events, session metadata and ingest errors of one message."""
        session = ctx.path.parent.name
        out: list[Emitted] = []
        if not ctx.state.get("announced"):
            ctx.state["announced"] = True
            out.append(SessionInfo(session=session))
        timestamp = read_timestamp(data.get("timestamp"), out)
        base = RecordEvents(session, timestamp, provenance={"hidden": True} if data.get("hide") else {})
        role = data.get("role")
        content = as_str(data.get("content")) or ""
        pending: list[Any] = [p for p in as_list(ctx.state.get(_PENDING)) if isinstance(p, list)]
        if role == "user":
            if content.strip():
                out.append(base.event(EventType.USER_INPUT, text=content, starts_turn=True))
        elif role == "assistant":
            out.extend(_assistant(data, content, base, pending, ctx))
        elif role == "tool" or (role == "system" and pending):
            call_id, name = pending.pop(0) if pending else (None, None)
            out.append(base.canonical_response(name, call_id, content))
        elif role == "system":
            out.append(base.event(EventType.SYSTEM, text=content))
        else:
            out.append(IngestError("unknown_record", f"gptme message with role {str(role)[:40]!r}"))
        ctx.state[_PENDING] = pending[-_LIMIT:]
        return out


def _assistant(
    data: dict[str, Any], content: str, base: RecordEvents, pending: list[Any], ctx: StreamContext
) -> list[Emitted]:
    metadata = as_dict(data.get("metadata"))
    model = as_str(metadata.get("model")) or as_str(ctx.state.get("model"))
    out: list[Emitted] = []
    if as_str(metadata.get("model")) and metadata["model"] != ctx.state.get("model"):
        ctx.state["model"] = metadata["model"]
        out.append(SessionInfo(session=base.session, model=metadata["model"]))
    events: list[Event] = [base.answer(content, model)] if content.strip() else []
    for index, match in enumerate(_BLOCK.finditer(content)):
        tool, argument, body = match.group(1), (match.group(2) or "").strip(), match.group(3)
        keys = _TOOLS.get(tool)
        if keys is None:
            continue
        arguments = {keys[1]: body.rstrip("\n")}
        if keys[0] and argument:
            arguments = {keys[0]: argument, **arguments}
        call_id = f"{base.session}:{ctx.state.get('calls_seen', 0)}:{index}"
        events.append(base.tool_call(tool, call_id, arguments, model))
        pending.append([call_id, tool])
    ctx.state["calls_seen"] = int(ctx.state.get("calls_seen", 0)) + 1
    if events:
        usage = metadata.get("usage")
        events[0].usage = token_usage(usage, _USAGE)
    out.extend(end_message(events))
    return out
