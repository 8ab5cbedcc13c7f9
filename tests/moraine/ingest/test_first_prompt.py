"""A session's first prompt is kept on its row for every harness (the title falls back to it), even when it arrives
in a later ingest pass than the session's first events."""

from __future__ import annotations

from pathlib import Path

from moraine.store.client import Store
from tests.moraine.ingest.test_pipeline import ingest, write_lines


def _first_prompt(store: Store) -> list[tuple[str | None]]:
    return store.query(f"SELECT first_user_message FROM {store.table('sessions')} FINAL")


def test_the_first_prompt_of_a_later_pass_is_kept_and_later_prompts_do_not_replace_it(
    store: Store, tmp_path: Path
) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(trace, [{"session": "s1", "type": "system", "text": "environment ready"}])
    assert ingest(store, trace).events == 1
    assert _first_prompt(store) == [(None,)]
    prompts = [
        {"session": "s1", "type": "user_input", "text": "  ", "starts_turn": True},
        {
            "session": "s1",
            "type": "user_input",
            "text": "Why do refunds skip the ledger?",
            "starts_turn": True,
        },
        {"session": "s1", "type": "user_input", "text": "And the reversals?", "starts_turn": True},
    ]
    write_lines(trace, prompts, mode="a")
    assert ingest(store, trace).events == 3
    assert _first_prompt(store) == [("Why do refunds skip the ledger?",)]


def test_an_adapters_own_first_prompt_is_not_replaced(store: Store, tmp_path: Path) -> None:
    trace = tmp_path / "a.jsonl"
    write_lines(
        trace,
        [
            {"session": "s1", "info": {"first_user_message": "what the person typed"}},
            {
                "session": "s1",
                "type": "user_input",
                "text": "<context> what the person typed",
                "starts_turn": True,
            },
        ],
    )
    ingest(store, trace)
    assert _first_prompt(store) == [("what the person typed",)]
