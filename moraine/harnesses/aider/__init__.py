"""Aider: the Markdown chat history it appends to in each repository (``<repo>/.aider.chat.history.md``).

Aider keeps no central store, so the source is opt-in: enable it and point its glob at the folders holding your
repositories, in ``config.toml``::

    [[sources]]
    name = "aider"
    enabled = true
    glob = "~/code/**/.aider.chat.history.md"   # the default glob is ~/src/**/.aider.chat.history.md
"""

from moraine.harness_api.declaration import Harness, Location

__all__ = ["HARNESS"]

HARNESS = Harness(
    name="aider",
    display_name="Aider",
    adapter="moraine.harnesses.aider.adapter:AiderAdapter",
    # 2: the cache hits and writes left out of input (Aider's 'sent' includes them)
    revision=2,
    usage=(
        "per reply: the `Tokens: N sent, N cache write, N cache hit, N received` line after it (sent includes the "
        "cache hits and writes, left out of input)"
    ),
    locations=(
        Location(
            source="aider",
            glob="~/src/**/.aider.chat.history.md",
            reader="aider_markdown",
            windows_glob="~/src/**/.aider.chat.history.md",
            enabled=False,
        ),
    ),
    readers={"aider_markdown": "moraine.harnesses.aider.markdown_reader:AiderMarkdownReader"},
    reads=(
        "one session per run header; prompts (####), replies, Aider's own lines: applied edits and created "
        "files as edit/write calls, /run commands with their output, the main model, token reports"
    ),
    not_read=(
        "opt-in (no central store: enable the source and set its glob); no per-message times (the run's start "
        "is used, read as UTC), no session id or title of Aider's own, no resume command; SEARCH/REPLACE "
        "bodies stay in the reply text; .aider.input.history and .aider.llm.history are not read"
    ),
)
