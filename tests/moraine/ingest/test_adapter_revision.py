"""A harness whose adapter revision went up (``Harness.revision``) has every file read under an older revision read
again on the next pass, its rows replaced (never duplicated) under the same session IDs; other harnesses' files are
left alone. The case: the real Codex rollouts of ``tests/fixtures/usage/codex`` stored as Codex's adapter read their
usage before issue 46 (revision 1: every repeated ``token_count`` counted, cached input inside input), then read by
the adapter of revision 2, whose figures are the hand counts of ``tests/moraine/usage/test_usage_fixtures.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from moraine import ids
from moraine.config import SourceConfig
from moraine.harness_api.adapter import StreamContext
from moraine.harness_api.model import Emitted, Event
from moraine.harnesses._shared.codex_format.adapter import CodexAdapter
from moraine.harnesses._shared.fields import as_dict
from moraine.harnesses._shared.usage import read_usage
from moraine.harnesses.registry import harnesses
from moraine.ingest.adapters import revision_for
from moraine.ingest.checkpoints import load_checkpoints
from moraine.ingest.pipeline import IngestSummary, Ingestor
from moraine.store.client import Store
from tests.moraine.usage.test_usage_fixtures import CLAUDE, USAGE, _rows, _summary, _tokens

SHORT = ids.session_id(ids.session_key("codex", "019c8a70-dda7-7f33-98ea-f30553347322"))
LONG = ids.session_id(ids.session_key("codex", "019c8bfe-ec25-79e0-97d7-bda6a9c575ff"))
CLAUDE_ID = ids.session_id(ids.session_key("claude", "67a8478e-78dc-44ab-82ea-f65c8ead85f6"))
SOURCES = [
    SourceConfig("codex", "codex", str(USAGE / "codex" / "*.jsonl"), str(USAGE / "codex")),
    SourceConfig("claude", "claude-code", str(CLAUDE.parent / "*.jsonl"), str(CLAUDE.parent)),
]
PATHS = {"codex": sorted((USAGE / "codex").glob("*.jsonl")), "claude": [CLAUDE]}


class _CodexRevision1(CodexAdapter):
    """Codex's adapter as it read usage before issue 46: each token_count's ``last_token_usage`` as written."""

    def normalize_object(self, data: dict[str, Any], ctx: StreamContext) -> list[Emitted]:
        out = super().normalize_object(data, ctx)
        payload = as_dict(data.get("payload"))
        if payload.get("type") == "token_count":
            usage = read_usage(
                as_dict(payload.get("info")).get("last_token_usage"),
                input="input_tokens",
                output="output_tokens",
                cache_read="cached_input_tokens",
                reasoning="reasoning_output_tokens",
            )
            for item in out:
                if isinstance(item, Event):
                    item.usage = usage
        return out


@pytest.fixture
def codex_at_revision_1(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Declare Codex at revision 1 until the test puts the installed declaration back (``_upgrade``)."""
    monkeypatch.setitem(harnesses(), "codex", replace(harnesses()["codex"], revision=1))
    yield


def _upgrade(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    assert revision_for("codex") == 2 and revision_for("claude-code") == 1


def _pass(store: Store, **adapters: Any) -> IngestSummary:
    return Ingestor(store, adapters=adapters).run(SOURCES, PATHS)


def _stored(store: Store) -> dict[str, Any]:
    t = store.table
    return {
        "events": store.query(f"SELECT count(), uniqExact(session_key, seq) FROM {t('events')}")[0],
        "sessions": sorted(
            store.query(f"SELECT session_key, harness_session_id, source FROM {t('sessions')} FINAL")
        ),
        "texts": store.query(
            f"SELECT groupArray(text) FROM (SELECT text FROM {t('events')} ORDER BY session_key, seq)"
        ),
    }


def _usage(store: Store) -> dict[str, tuple[tuple[int, int, int, int], int]]:
    rows = _rows(_summary(store, by=["session"]))
    return {key[0]: (_tokens(row), row["calls"]) for key, row in rows.items()}


def test_a_harness_whose_revision_went_up_is_read_again_under_the_same_session_ids(
    store: Store, codex_at_revision_1: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _pass(store, codex=_CodexRevision1())
    assert (first.files, first.reread, first.rewritten) == (3, 0, 0)
    before = _stored(store)
    old = _usage(store)
    # (input, output, cache write, cache read), calls: cached input counted in input, the long session's five
    # repeated token_counts counted again (eleven with counts).
    assert old[SHORT] == ((34469, 431, 0, 3456), 1)
    assert old[LONG] == ((533305, 1960, 0, 428032), 11)
    claude_checkpoints = load_checkpoints(store, "claude")
    assert {cp.revision for cp in load_checkpoints(store, "codex").values()} == {1}

    _upgrade(monkeypatch)
    second = _pass(store)

    assert (second.files, second.reread, second.rewritten, second.unchanged) == (2, 2, 0, 1)  # files: read
    assert _stored(store) == before  # the same events and sessions, each once, under the same keys
    new = _usage(store)
    assert new[SHORT] == ((31013, 431, 0, 3456), 1)  # the hand counts
    assert new[LONG] == ((59525, 1123, 0, 238848), 6)
    assert new[CLAUDE_ID] == old[CLAUDE_ID]
    assert load_checkpoints(store, "claude") == claude_checkpoints  # not read again: its checkpoint untouched
    codex = load_checkpoints(store, "codex").values()
    assert {(cp.revision, cp.generation) for cp in codex} == {(2, 1)}

    third = _pass(store)  # read under the current revision: nothing to do
    assert (third.reread, third.unchanged, third.events) == (0, 3, 0)


def test_a_checkpoint_written_before_revisions_reads_as_revision_1(store: Store) -> None:
    t = store.table("checkpoints")
    store.command(
        f"INSERT INTO {t} (stream_id, source, path, file_identity, offset, line_no, state, generation, updated_at, "
        "version) VALUES (7, 'codex', '/a.jsonl', '', 10, 1, '{}', 0, now64(3), 1)"
    )
    assert load_checkpoints(store, "codex")[7].revision == 1
