"""Visual Studio Copilot: the OpenTelemetry trace files Visual Studio's GitHub Copilot writes."""

from __future__ import annotations

from moraine.harness_api.declaration import Harness, Location

_TRACES = "VSGitHubCopilotLogs/traces/*_VSGitHubCopilot_traces.jsonl"

HARNESS = Harness(
    name="visual-studio-copilot",
    display_name="Visual Studio Copilot",
    adapter="moraine.harnesses.visual_studio_copilot.adapter:VisualStudioCopilotAdapter",
    usage=(
        "per model call span (`gen_ai.usage.input_tokens`, `output_tokens`); the input count includes any cached "
        "tokens, which the span does not count apart"
    ),
    locations=(
        Location(
            source="visual-studio-copilot",
            glob=f"~/.cache/{_TRACES}",
            macos_glob=f"~/Library/Caches/{_TRACES}",
            windows_glob=f"~/AppData/Local/Temp/{_TRACES}",
        ),
    ),
    reads=(
        "traces/*_VSGitHubCopilot_traces.jsonl spans by conversation id: prompts and replies of chat spans, tool "
        "calls and their results from execute_tool spans, the model, input and output token counts"
    ),
    not_read=(
        "the conversation files newer Visual Studio versions write under <solution>/.vs/*/copilot-chat/*/sessions, "
        "the solution folder (not in the spans, so relative tool paths stay relative), credits; no resume command"
    ),
)
