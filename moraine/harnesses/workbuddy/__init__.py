"""WorkBuddy (Tencent's coding agent): transcripts under ``~/.workbuddy/projects/<project>/``."""

from moraine.harnesses._shared.locations import in_home
from moraine.harness_api.declaration import Harness

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="workbuddy",
    display_name="WorkBuddy",
    adapter="moraine.harnesses.workbuddy.adapter:WorkBuddyAdapter",
    # 2: an OpenAI prompt_tokens' cached tokens left out of input
    revision=2,
    usage="per model response (its provider's usage; an OpenAI `prompt_tokens` includes its cached tokens, left out of input)",
    locations=(in_home("workbuddy", "~/.workbuddy/projects/**/*.jsonl", "~/.workbuddy/projects"),),
    reads=(
        "transcripts and sub-agent transcripts: prompts, replies, function calls and their results, models, "
        "token usage (WorkBuddy's, Anthropic's or OpenAI's counts), cwd"
    ),
    not_read=(
        "titles (none recorded), reasoning (not recorded), tool errors (results carry no status); no resume "
        "command (none documented)"
    ),
)
