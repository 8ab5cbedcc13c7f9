"""Prime Agent adapter (sources prime-agent and prime-agent-subagents): goldens and parent links."""

from __future__ import annotations

from pathlib import Path

from tests.harnesses.adapter_goldens import assert_golden, events, jsonl_records, run_adapter

from moraine.harnesses.prime_agent.adapter import PrimeAgentAdapter

HERE = Path(__file__).parent
HOME = HERE / "home"

ROOT = HOME / ".prime/agent/sessions/4a5b6c7d-1111-4222-8333-944455556666.jsonl"
CHILD = next((HOME / ".prime/agent/session-artifacts").rglob("sub-*/*.jsonl"))


def normalized(path, source: str) -> list[dict]:
    items, _ = run_adapter(PrimeAgentAdapter(), jsonl_records(path), path, source)
    return items


def test_prime_root_session_matches_golden() -> None:
    assert_golden(normalized(ROOT, "prime-agent"), HERE / "expected/root.golden.json")


def test_prime_child_session_matches_golden() -> None:
    assert_golden(normalized(CHILD, "prime-agent-subagents"), HERE / "expected/child.golden.json")


def test_child_transcript_is_its_own_session_linked_to_its_parent() -> None:
    items = normalized(CHILD, "prime-agent-subagents")
    header = items[0]
    assert header["item"] == "session_info"
    assert header["session"] == "b1c2d3e4-2222-4333-8444-a55566677788"
    assert header["parent_session"] == "4a5b6c7d-1111-4222-8333-944455556666"
    assert all(e["sidechain"] for e in events(items))
    task = next(e for e in events(items) if e["starts_turn"])
    assert (task["type"], task["text"]) == (
        "user_input",
        "[task from parent]\nParse the raw tide feed. primechildkeyword",
    )
    assert not any(e["sidechain"] for e in events(normalized(ROOT, "prime-agent")))


def test_prime_bookkeeping_and_hidden_content_are_not_indexed() -> None:
    texts = [e["text"] for e in events(normalized(ROOT, "prime-agent"))]
    assert not any("HIDDEN" in text for text in texts)
    assert "Visible notice by default." in texts
    final = [e["text"] for e in events(normalized(ROOT, "prime-agent")) if e["is_final_answer"]]
    assert final == ["Tide tables regenerated."]
