"""file_attention on really ingested Codex and Claude Code sessions over a real git layout."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixtures.handler_data import AttentionJson, file_attention_data, open_data
from fixtures.attention.layout import Layout
from fixtures.attention.traces import write_corpus

from moraine.config import harness_for_source
from moraine.errors import RequestError
from moraine.ingest.pipeline import ingest_paths
from moraine.ids import EventId, SessionId, TurnId, parse_id
from moraine.store.client import Store
from tests.fixtures.requests import attention_request, open_request


@pytest.fixture(scope="module")
def attention_store(store_dsn: str) -> Iterator[Store]:
    """One database for the whole module: the corpus is read-only once ingested."""
    database = f"t_{uuid.uuid4().hex[:16]}"
    opened = Store.open(store_dsn, database=database)
    try:
        yield opened
    finally:
        opened.command(f"DROP DATABASE IF EXISTS {database}")
        opened.close()


@pytest.fixture(scope="module")
def corpus(attention_store: Store, tmp_path_factory: pytest.TempPathFactory) -> Layout:
    def ingest(paths: list[Path], source: str) -> Any:
        return ingest_paths(attention_store, paths, source=source, harness=harness_for_source(source))

    return write_corpus(tmp_path_factory.mktemp("attention"), ingest)


@pytest.fixture
def store(attention_store: Store) -> Store:
    return attention_store


def query(store: Store, launch: Path | None, **overrides: Any) -> AttentionJson:
    request: dict[str, Any] = {
        "path": "src/app.py",
        "scope": "project",
        "granularity": "events",
        "start_datetime": None,
        "end_datetime": None,
        "tool": None,
        "harness": None,
        "source": None,
        "mutations_only": False,
        "limit": 50,
    }
    request.update(overrides)
    parsed = attention_request(**request)
    return file_attention_data(store, parsed, launch_dir=None if launch is None else str(launch))


def roots(result: AttentionJson) -> dict[str, tuple[int, int]]:
    return {r["root"]: (r["touch_count"], r["session_count"]) for r in result.data["roots"]}


def test_one_logical_file_is_unified_across_checkout_and_worktrees(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.repo)
    assert (result.data["tail"], result.data["stripped_root"], result.data["tail_is_absolute"]) == (
        "src/app.py",
        str(corpus.repo),
        False,
    )
    assert roots(result) == {str(corpus.repo): (2, 1), str(corpus.agent): (2, 1), str(corpus.linked): (1, 1)}
    summary = result.data["summary"]
    assert summary == {
        "total_touches": 5,
        "distinct_sessions": 3,
        "distinct_roots": 3,
        "distinct_known_roots": 3,
        "unknown_root_touches": 0,
        "first_touch": "2026-06-10T12:00:00.000Z",
        "last_touch": "2026-06-12T10:01:00.000Z",
        "ambiguous": True,
        "scan_truncated": False,
    }
    kinds = [(e["event"]["tool_name"], e["event"]["match_kind"]) for e in result.data["events"]]
    assert kinds == [
        ("Read", "path_suffix"),
        ("Edit", "path_suffix"),
        ("shell", "shell_path"),
        ("apply_patch", "patch_path"),
        ("exec_command", "shell_path"),
    ]
    assert [e["rank"] for e in result.data["events"]] == [1, 2, 3, 4, 5]
    assert (result.data["result_count"], result.data["truncated"]) == (5, False)


def test_the_non_git_directory_stays_separate(store: Store, corpus: Layout) -> None:
    plain = query(store, corpus.plain)
    assert roots(plain) == {str(corpus.plain): (1, 1)}
    assert plain.data["stripped_root"] == str(corpus.plain)
    everything = query(store, corpus.repo, scope="all")
    assert roots(everything)[str(corpus.plain)] == (1, 1)
    assert everything.data["summary"]["distinct_known_roots"] == 4
    assert everything.data["summary"]["total_touches"] == 6


def test_urls_prose_flag_globs_and_its_own_calls_are_not_touches(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.repo, scope="all")
    previews = " ".join(e["event"]["action_preview"] for e in result.data["events"])
    assert "example.com" not in previews and "remember" not in previews
    assert all("file_attention" not in e["event"]["tool_name"] for e in result.data["events"])
    exec_rows = [e for e in result.data["events"] if e["event"]["tool_name"] == "exec_command"]
    assert len(exec_rows) == 1


def test_every_returned_id_opens(store: Store, corpus: Layout) -> None:
    events = query(store, corpus.repo, scope="all").data["events"]
    sessions = query(store, corpus.repo, scope="all", granularity="sessions").data["sessions"]
    handles = [value for row in events + sessions for value in row["open"].values()]
    assert len([h for h in handles if h.startswith("turn:")]) == len(events) + len(sessions)
    for handle in handles:
        opened = open_data(store, open_request("s", id=handle), cursor_secret="s")
        kind = {EventId: "event", TurnId: "turn", SessionId: "session"}[type(parse_id(handle))]
        assert opened["kind"] == kind
    for row in events:
        opened = open_data(store, open_request("s", id=row["open"]["event_id"]), cursor_secret="s")
        assert opened["event"]["timestamp"] == row["event"]["timestamp"]
        assert opened["event"]["turn_id"] == row["open"]["turn_id"]


def test_session_rollups_summarize_each_session(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.repo, granularity="sessions")
    rows = result.data["sessions"]
    assert [r["session"]["touch_count"] for r in rows] == [2, 1, 2]
    first = rows[0]["session"]
    assert (first["harness"], first["source"], first["tools"], first["worktree_roots"]) == (
        "claude-code",
        "claude",
        ["Edit", "Read"],
        [str(corpus.agent)],
    )
    assert (first["first_touch"], first["last_touch"]) == (
        "2026-06-12T10:00:00.000Z",
        "2026-06-12T10:01:00.000Z",
    )
    codex = rows[2]["session"]
    assert (codex["match_kinds"], codex["harness"]) == (["patch_path", "shell_path"], "codex")
    assert "events" not in result.data and result.data["result_count"] == 3


def test_limit_hides_rows_and_says_truncated(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.repo, limit=2)
    assert (result.data["result_count"], result.data["limit"], result.data["truncated"]) == (2, 2, True)
    assert result.data["summary"]["total_touches"] == 5
    sessions = query(store, corpus.repo, granularity="sessions", limit=3)
    assert sessions.data["truncated"] is False


def test_scan_cap_is_visible_as_truncation(store: Store, corpus: Layout) -> None:
    result = file_attention_data(
        store,
        attention_request(
            path="src/app.py", scope="project", granularity="events", mutations_only=False, limit=50
        ),
        launch_dir=str(corpus.repo),
        scan_cap=3,
    )
    assert result.data["summary"]["scan_truncated"] is True
    assert result.data["summary"]["total_touches"] == 3
    assert result.data["truncated"] is True
    assert any("3 most recent" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"tool": "EDIT"}, ["Edit"]),
        ({"mutations_only": True}, ["Edit", "shell", "apply_patch", "exec_command"]),
        ({"harness": "codex"}, ["shell", "apply_patch", "exec_command"]),
        ({"source": "claude"}, ["Read", "Edit"]),
        ({"harness": "codex", "source": "claude"}, []),
        ({"harness": "Codex"}, []),
        (
            {"start_datetime": "2026-06-10T12:05:00.000Z", "end_datetime": "2026-06-12T10:01:00Z"},
            ["Edit", "shell", "apply_patch"],
        ),
        ({"start_datetime": "2026-06-10T14:05:00+02:00"}, ["Read", "Edit", "shell", "apply_patch"]),
    ],
)
def test_filters_are_exact_and_combined(
    store: Store, corpus: Layout, filters: dict[str, Any], expected: list[str]
) -> None:
    events = query(store, corpus.repo, **filters).data["events"]
    assert [e["event"]["tool_name"] for e in events] == expected
    for row in events:
        for key in ("harness", "source"):
            if filters.get(key):
                assert row["event"][key] == filters[key]


def test_absolute_paths_reduce_to_the_tail_of_their_worktree(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.plain, path=str(corpus.linked / "src" / "app.py"), scope="all")
    assert (result.data["tail"], result.data["stripped_root"]) == ("src/app.py", str(corpus.linked))
    assert result.data["summary"]["total_touches"] == 6


def test_relative_paths_resolve_from_the_launch_directory(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.repo / "src", path="app.py")
    assert (result.data["tail"], result.data["stripped_root"]) == ("src/app.py", str(corpus.repo))
    assert result.data["summary"]["total_touches"] == 5


def test_project_scope_fails_closed_without_a_launch_project(
    store: Store, corpus: Layout, tmp_path: Path
) -> None:
    for launch in (None, tmp_path / "missing"):
        result = query(store, launch)
        assert result.data["summary"]["total_touches"] == 0
        assert result.data["events"] == [] and result.data["roots"] == []
        assert any("scope=project" in w for w in result.warnings)
    assert query(store, None, scope="all").data["summary"]["total_touches"] == 6


def test_unmatchable_absolute_path_is_literal_and_warned(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.plain, path="/nowhere/at/all.py", scope="all")
    assert (result.data["tail"], result.data["tail_is_absolute"], result.data["stripped_root"]) == (
        "/nowhere/at/all.py",
        True,
        None,
    )
    assert result.data["summary"]["total_touches"] == 0
    assert any("absolute path" in w for w in result.warnings)


def test_generic_single_segment_tail_is_warned(store: Store, corpus: Layout) -> None:
    result = query(store, corpus.repo, path="README.md")
    assert any("single path segment" in w for w in result.warnings)


def test_bad_ranges_and_limits_are_request_errors(store: Store, corpus: Layout) -> None:
    with pytest.raises(RequestError) as caught:
        query(store, corpus.repo, start_datetime="2026-06-12T00:00:00Z", end_datetime="2026-06-12T00:00:00Z")
    assert caught.value.code == "invalid_request"
    with pytest.raises(RequestError):
        query(store, corpus.repo, start_datetime="2026-06-12T00:00:00")
    assert attention_request(max_results=20, path="a.py").limit == 20
    assert attention_request(max_results=500, path="a.py").limit == 50
    with pytest.raises(RequestError):
        attention_request(max_results=500, path="a.py", limit=501)


@pytest.mark.parametrize(
    ("launch", "overrides"),
    [
        ("repo", {}),
        ("repo", {"granularity": "sessions"}),
        ("repo", {"scope": "all", "limit": 1}),
        (None, {}),
        ("plain", {"path": "/nowhere/x.py", "scope": "all", "granularity": "sessions"}),
    ],
)
def test_responses_validate_against_the_published_schema(
    store: Store, corpus: Layout, launch: str | None, overrides: dict[str, Any]
) -> None:
    from generated.validators import file_attention_response

    request: dict[str, Any] = {
        "path": "src/app.py",
        "scope": "project",
        "granularity": "events",
        "start_datetime": None,
        "end_datetime": None,
        "tool": None,
        "harness": None,
        "source": None,
        "mutations_only": False,
        "limit": 50,
        **overrides,
    }
    launch_dir = None if launch is None else str(getattr(corpus, launch))
    parsed = attention_request(**request)
    result = file_attention_data(store, parsed, launch_dir=launch_dir)
    envelope = {
        "schema_version": "moraine.mcp.file_attention.v1",
        "tool": "file_attention",
        "request": parsed.echo(),
        "data": result.data,
        "warnings": result.warnings,
        "performance": {"elapsed_ms": 1},
    }
    file_attention_response.validate(envelope)
    assert result.data["granularity"] in result.data
