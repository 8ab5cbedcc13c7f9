"""Read Posit Assistant conversations (``~/.posit/assistant/workspaces/<workspace>/<conversation>/``).

A conversation folder holds ``conversation.json`` (``schemaVersion``; ``root``: id, title, summary, timestamp in ms,
``metadata`` with ``kind`` main or subagent, ``parentTreeId``, ``model.id``; ``messages``: the tree of UI messages,
each naming the ``lmMessageIds`` it shows and whether it is on the active branch) and ``lm-messages.jsonl``, one
model message a line: ``{id, message: {role, content, providerOptions: {providerMetadata: {positai: {timestamp,
modelId, usage}}}}}``. The workspace folder's ``workspace.json`` names the project ``path``; sub-agents live under
``<conversation>/subagents/<id>/``. This reader is pointed at ``conversation.json`` and yields a header, then the
model messages in file order; those only an abandoned branch shows are marked as a side chain.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.document_adapter import header, message_record
from moraine.harnesses._shared.fields import as_dict, as_list, as_str
from moraine.harnesses._shared.json_document import JsonDocumentReader, NotTheDocument
from moraine.harnesses._shared.sidecar import json_lines

__all__ = ["PositAssistantReader"]


class PositAssistantReader(JsonDocumentReader):
    """Yield a Posit Assistant conversation's header and model messages after the saved position."""

    error_reason = "malformed_session_file"
    reread_header = True

    def records(self, document: Any, path: Path) -> list[dict[str, Any]]:
        """Return the header and message records of the conversation whose ``conversation.json`` is ``path``."""
        root = as_dict(as_dict(document).get("root"))
        session = as_str(root.get("id"))
        if not session:
            raise NotTheDocument("no root.id")
        meta = as_dict(root.get("metadata"))
        head = header(
            session,
            title=as_str(root.get("title")) or as_str(root.get("summary")),
            cwd=_workspace_path(path),
            model=as_str(as_dict(meta.get("model")).get("id")),
            started_at=root.get("timestamp"),
            version=document.get("schemaVersion"),
            parent=as_str(meta.get("parentTreeId")) if meta.get("kind") == "subagent" else None,
        )
        shown = [as_dict(m) for m in as_list(document.get("messages"))]
        inactive = {i for m in shown if m.get("isActive") is False for i in as_list(m.get("lmMessageIds"))}
        inactive -= {
            i for m in shown if m.get("isActive") is not False for i in as_list(m.get("lmMessageIds"))
        }
        records = [head]
        for index, line in enumerate(json_lines(path.with_name("lm-messages.jsonl"))):
            entry = as_dict(line)
            message = entry.get("message", line)
            positai = as_dict(
                as_dict(as_dict(as_dict(message).get("providerOptions")).get("providerMetadata")).get(
                    "positai"
                )
            )
            records.append(
                message_record(
                    session,
                    index,
                    message,
                    timestamp=positai.get("timestamp"),
                    model=positai.get("modelId"),
                    usage=positai.get("usage"),
                    sidechain=entry.get("id") in inactive,
                )
            )
        return records


def _workspace_path(path: Path) -> str | None:
    """Return the project path of the workspace a conversation (or a sub-agent's) belongs to."""
    folder = path.parent.parent
    if folder.name == "subagents":
        folder = folder.parent.parent
    try:
        return as_str(as_dict(json.loads((folder / "workspace.json").read_bytes())).get("path"))
    except (OSError, ValueError):
        return None
