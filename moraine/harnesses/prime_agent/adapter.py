"""Prime Agent sessions (sources ``prime-agent`` and ``prime-agent-subagents``) -> normalized events.

Prime Agent writes the pi v3 session-tree schema (see ``moraine.harnesses.pi_coding_agent``) plus its own bookkeeping entries (service tier,
agent status, usage attribution, session and git state), which stay out of the index like any unknown entry. RLM
child transcripts (``session-artifacts/**/sub-*/*.jsonl``) name their parent in the header's ``parentSession`` path:
each child is its own session linked to that parent, and its events are marked as a sidechain.
"""

from __future__ import annotations

from moraine.harness_api.adapter import StreamContext
from moraine.harnesses._shared.pi_tree import PiFamilyNormalizer

__all__ = ["PrimeAgentAdapter"]

SUBAGENT_SOURCE = "prime-agent-subagents"


class PrimeAgentAdapter(PiFamilyNormalizer):
    """Normalize Prime Agent root sessions and RLM child transcripts."""

    harness = "prime-agent"
    parent_is_subagent = True

    def _sidechain(self, ctx: StreamContext) -> bool:
        return ctx.source == SUBAGENT_SOURCE or "parent" in ctx.state
