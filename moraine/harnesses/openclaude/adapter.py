"""OpenClaude transcripts (``~/.openclaude/projects/<project>/<session>.jsonl``): Claude Code's own format.

OpenClaude is Claude Code's command line running other providers' models; it writes the same transcripts, so
the Claude Code adapter reads them unchanged, under OpenClaude's harness value.
"""

from __future__ import annotations

from moraine.harnesses._shared.claude_format.adapter import ClaudeCodeAdapter

__all__ = ["OpenClaudeAdapter"]


class OpenClaudeAdapter(ClaudeCodeAdapter):
    """The Claude Code adapter under the ``openclaude`` harness value."""

    harness = "openclaude"
