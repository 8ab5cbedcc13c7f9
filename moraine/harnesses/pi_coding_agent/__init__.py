"""pi-coding-agent (and its fork oh-my-pi): session-tree JSONL files."""

from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="pi-coding-agent",
    display_name="Pi Coding Agent",
    adapter="moraine.harnesses.pi_coding_agent.adapter:PiAdapter",
    # 2: issue 46: the usage on assistant messages is read (pi_tree), where none was before
    revision=2,
    usage="per assistant message (`usage`: input, output, cacheRead, cacheWrite)",
    locations=(
        Location("pi", "~/.pi/agent/sessions/**/*.jsonl", windows_glob="~/.pi/agent/sessions/**/*.jsonl"),
        Location("omp", "~/.omp/agent/sessions/**/*.jsonl", windows_glob="~/.omp/agent/sessions/**/*.jsonl"),
    ),
    reads="messages (user, assistant, tool results, bash executions), thinking, compactions, session names",
    not_read="abandoned branches of the session tree are read like the rest (no branch selection)",
)
