"""TRAE CLI's adapter: its rollouts are Codex's format (a fork of codex-rs), read by the Codex adapter.

That includes the token usage of a ``token_count`` event's ``info.last_token_usage`` (the last model call), counted
once when a repeated event leaves the running total unchanged, with cached input out of ``input`` (``TokenUsage``).
"""

from __future__ import annotations

from moraine.harnesses._shared.codex_format.adapter import CodexAdapter

__all__ = ["TraeCliAdapter"]


class TraeCliAdapter(CodexAdapter):
    """Normalize TRAE CLI rollout lines (``session_meta``, ``turn_context``, ``response_item``, ``event_msg``)."""

    harness = "trae-cli"
