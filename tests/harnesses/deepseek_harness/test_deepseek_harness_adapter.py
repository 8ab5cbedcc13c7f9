"""DeepSeek Harness: event logs -> messages, calls with parsed arguments, usage, turn ends and the newest title."""

from __future__ import annotations

from tests.harnesses.home import HARNESS_TESTS
from tests.harnesses.run import errors, normalized, read_cleanly, responses

from moraine.harness_api.model import EventType, SessionInfo, TerminalKind, TokenUsage

LOG = next((HARNESS_TESTS / "deepseek_harness/home/.dsh/sessions").rglob("session.jsonl"))


def test_messages_calls_and_results_with_usage_and_injected_text_as_system() -> None:
    info, events = read_cleanly("deepseek-harness", LOG)
    assert info.session == "lantern-7f3a9c21" and info.cwd == "/home/dev/lantern"
    assert [e.type for e in events[:4]] == [
        EventType.USER_INPUT,
        EventType.SYSTEM,
        EventType.REASONING,
        EventType.TOOL_CALL,
    ]
    assert events[3].arguments == {"path": "/home/dev/lantern/src/dimmer.c"}
    assert events[2].usage == TokenUsage(input=820, output=41, cache_read=512, cache_write=0, reasoning=18)
    assert responses(events) == [("read_file", "call-1", False), ("edit_file", "call-2", False)]
    assert not any("Read dimmer" in e.text for e in events)  # streaming chunks are not read


def test_turns_end_with_the_answer_or_the_recorded_reason() -> None:
    _, events = read_cleanly("deepseek-harness", LOG)
    ends = [(e.type, e.terminal_kind, e.is_final_answer) for e in events if e.terminal]
    assert ends == [
        (EventType.ASSISTANT_RESPONSE, TerminalKind.FINAL_RESPONSE, True),
        (EventType.RUNTIME, TerminalKind.INTERRUPTED, False),
    ]


def test_the_newest_title_is_the_last_one_recorded() -> None:
    titles = [i.title for i in normalized("deepseek-harness", LOG) if isinstance(i, SessionInfo) and i.title]
    assert titles == ["Smooth lantern dimmer", "Lantern dimmer curve"]


def test_an_unknown_version_is_reported_once_and_an_event_before_the_header_is_an_error(tmp_path) -> None:
    log = tmp_path / "session.jsonl"
    lines = LOG.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join([lines[3], lines[0].replace('"version":0', '"version":3'), *lines[1:]]) + "\n")
    assert [e.reason for e in errors(normalized("deepseek-harness", log))] == [
        "malformed_record",
        "unknown_format_version",
    ]
