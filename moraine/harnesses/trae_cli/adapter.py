"""TRAE CLI's adapter: its rollouts are Codex's format (a fork of codex-rs), read by the Codex adapter.

On top of what the Codex adapter reads, a ``token_count`` event's ``info.last_token_usage`` (the last model call:
``input_tokens``, ``cached_input_tokens``, ``output_tokens``, ``reasoning_output_tokens``) becomes the token usage
of the runtime event it yields.
"""

from __future__ import annotations

from typing import Any

from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.codex_format.adapter import CodexAdapter
from moraine.harnesses._shared.fields import as_dict, as_int
from moraine.harness_api.model import Emitted, Event, TokenUsage

__all__ = ["TraeCliAdapter"]


class TraeCliAdapter(CodexAdapter):
    """Normalize TRAE CLI rollout lines (``session_meta``, ``turn_context``, ``response_item``, ``event_msg``)."""

    harness = "trae-cli"

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        """Return what the Codex adapter reads of the line, with token usage on a ``token_count`` event."""
        out = super().normalize_object(data, ctx)
        payload = as_dict(data.get("payload"))
        if data.get("type") == "event_msg" and payload.get("type") == "token_count":
            usage = _usage(as_dict(as_dict(payload.get("info")).get("last_token_usage")))
            for item in out:
                if isinstance(item, Event) and usage is not None:
                    item.usage = usage
        return out


def _usage(last: dict[str, Any]) -> TokenUsage | None:
    usage = TokenUsage(
        input=as_int(last.get("input_tokens")),
        output=as_int(last.get("output_tokens")),
        cache_read=as_int(last.get("cached_input_tokens")),
        reasoning=as_int(last.get("reasoning_output_tokens")),
    )
    return None if usage == TokenUsage() else usage
