"""Unknown roots, missing trace joins and missing timestamps, on touches inserted directly into the store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fixtures.handler_data import AttentionJson, file_attention_data
from moraine.attention.extract import TOUCH_COLUMNS
from moraine.ids import event_id, session_id, turn_id
from moraine.store.client import Store
from tests.fixtures.requests import attention_request

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def touch(
    tail: str, key: int, seq: int, root: str | None, path: str, when: datetime | None, **extra: Any
) -> dict[str, Any]:
    row = {
        "tail": tail,
        "session_key": key,
        "seq": seq,
        "turn_seq": 1,
        "path": path,
        "project_id": extra.pop("project_id", "git:p" if root else ""),
        "worktree_root": root,
        "match_kind": "path_suffix",
        "tool_name": "Edit",
        "harness": "codex",
        "source": "codex",
        "timestamp": when,
        "action_preview": "{}",
        "stream_id": 1,
        "source_offset": seq,
    }
    row.update(extra)
    return row


def insert(
    store: Store, touches: list[dict[str, Any]], events: list[tuple[int, int, datetime | None]]
) -> None:
    store.insert("touches", [[t[c] for c in TOUCH_COLUMNS] for t in touches], TOUCH_COLUMNS)
    store.insert(
        "events",
        [[key, seq, 1, seq, "tool_call", when] for key, seq, when in events],
        ["session_key", "seq", "turn_seq", "ordinal", "type", "timestamp"],
    )
    keys = sorted({key for key, _, _ in events})
    store.insert(
        "turns",
        [[key, 1, 1, 9, 9, 1] for key in keys],
        ["session_key", "turn_seq", "first_seq", "last_seq", "event_count", "version"],
    )
    store.insert(
        "sessions",
        [[key, f"s{key}", "codex", "codex", 1] for key in keys],
        ["session_key", "harness_session_id", "source", "harness", "version"],
    )


def run(store: Store, **overrides: Any) -> AttentionJson:
    request: dict[str, Any] = {
        "path": "src/app.py",
        "scope": "all",
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
    launch_dir = request.pop("launch_dir", None)
    return file_attention_data(store, attention_request(**request), launch_dir=launch_dir)


def test_unknown_root_touches_match_by_suffix_and_make_the_tail_ambiguous(store: Store) -> None:
    insert(
        store,
        [
            touch("src/app.py", 11, 1, "/home/me/repo", "/home/me/repo/src/app.py", T0),
            touch("/mnt/old/repo/src/app.py", 12, 1, None, "/mnt/old/repo/src/app.py", T0),
            touch("src/app.py", 13, 1, None, "src/app.py", T0),
            touch("lib/src/app.py", 14, 1, "/home/me/other", "/home/me/other/lib/src/app.py", T0),
            touch("/mnt/old/repo/xsrc/app.py", 15, 1, None, "/mnt/old/repo/xsrc/app.py", T0),
        ],
        [(11, 1, T0), (12, 1, T0), (13, 1, T0), (14, 1, T0), (15, 1, T0)],
    )
    result = run(store)
    summary = result.data["summary"]
    assert (summary["total_touches"], summary["unknown_root_touches"], summary["distinct_known_roots"]) == (
        3,
        2,
        1,
    )
    assert (summary["distinct_roots"], summary["ambiguous"]) == (2, True)
    assert {r["root"]: r["touch_count"] for r in result.data["roots"]} == {"(unknown)": 2, "/home/me/repo": 1}
    assert sorted(e["event"]["worktree_root"] or "" for e in result.data["events"]) == [
        "",
        "",
        "/home/me/repo",
    ]
    assert any("no provable worktree root" in w for w in result.warnings)


def test_absolute_query_finds_known_root_touches_by_full_path(store: Store, tmp_path: Path) -> None:
    gone = "/srv/deleted-repo/src/app.py"
    insert(store, [touch("src/app.py", 21, 1, "/srv/deleted-repo", gone, T0)], [(21, 1, T0)])
    result = run(store, path=gone, launch_dir=str(tmp_path))
    assert result.data["tail_is_absolute"] is True
    assert result.data["summary"]["total_touches"] == 1


def test_missing_trace_join_gives_null_timestamp_and_no_turn_id(store: Store) -> None:
    insert(store, [touch("src/app.py", 31, 5, "/r", "/r/src/app.py", T0)], [])
    [row] = run(store).data["events"]
    assert row["event"]["timestamp"] is None and row["event"]["turn"] is None
    assert row["open"] == {"event_id": event_id(31, 5), "session_id": session_id(31)}


def test_missing_timestamps_stay_null_never_epoch(store: Store) -> None:
    insert(store, [touch("src/app.py", 41, 2, "/r", "/r/src/app.py", None)], [(41, 2, None)])
    result = run(store)
    [row] = result.data["events"]
    assert row["event"]["timestamp"] is None
    assert row["open"]["turn_id"] == turn_id(41, 1)
    assert (result.data["summary"]["first_touch"], result.data["summary"]["last_touch"]) == (None, None)
    [rollup] = run(store, granularity="sessions").data["sessions"]
    assert (rollup["session"]["first_touch"], rollup["session"]["last_touch"]) == (None, None)
    assert run(store, start_datetime="1970-01-01T00:00:00Z").data["summary"]["total_touches"] == 0


def test_null_timestamps_sort_after_dated_touches(store: Store) -> None:
    insert(
        store,
        [
            touch("src/app.py", 51, 1, "/r", "/r/src/app.py", None),
            touch("src/app.py", 52, 1, "/r", "/r/src/app.py", T0),
        ],
        [(51, 1, None), (52, 1, T0)],
    )
    events = run(store).data["events"]
    assert [e["event"]["session_id"] for e in events] == [session_id(52), session_id(51)]


def test_project_scope_leaves_unknown_roots_out_and_says_so(store: Store, tmp_path: Path) -> None:
    launch = tmp_path / "proj"
    launch.mkdir()
    from moraine.attention.project import ProjectResolver

    project = ProjectResolver().project_of(str(launch))
    assert project is not None
    insert(
        store,
        [
            touch("src/app.py", 61, 1, str(launch), f"{launch}/src/app.py", T0, project_id=project),
            touch("/old/box/src/app.py", 62, 1, None, "/old/box/src/app.py", T0),
        ],
        [(61, 1, T0), (62, 1, T0)],
    )
    result = run(store, scope="project", launch_dir=str(launch))
    assert result.data["summary"]["total_touches"] == 1
    assert any("no provable project" in w for w in result.warnings)
    assert run(store, scope="all", launch_dir=str(launch)).data["summary"]["unknown_root_touches"] == 1
