"""Prime Agent: pi-style session trees, and its RLM sub-agent transcripts."""

from moraine.harness_api.declaration import Harness, Location

_ARTIFACTS = "~/.prime/agent/session-artifacts/**/sub-*/*.jsonl"

HARNESS = Harness(
    name="prime-agent",
    display_name="Prime Agent",
    adapter="moraine.harnesses.prime_agent.adapter:PrimeAgentAdapter",
    # 2: issue 46: the usage on assistant messages is read (pi_tree), where none was before
    revision=2,
    locations=(
        Location(
            "prime-agent", "~/.prime/agent/sessions/*.jsonl", windows_glob="~/.prime/agent/sessions/*.jsonl"
        ),
        Location("prime-agent-subagents", _ARTIFACTS, windows_glob=_ARTIFACTS),
    ),
    reads="the pi session-tree messages, sub-agent (RLM child) transcripts linked to their parent",
    not_read="service tier, agent status, usage attribution and git state entries",
)
