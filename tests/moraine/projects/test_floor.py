"""The project floor: resolving the launch project, describing it, and keeping only its sessions in the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moraine.attention.project import ProjectResolver
from moraine.errors import ConfigError
from moraine.ids import session_key
from moraine.projects.floor import resolve_floor
from moraine.store.reads.floor import in_floor
from moraine.store.reads.floor import project_condition
from moraine.projects.projects import session_project
from moraine.store.client import Store


def _repo(path: Path) -> Path:
    (path / ".git").mkdir(parents=True)
    (path / "src").mkdir()
    return path


def _worktree(repo: Path, path: Path) -> Path:
    gitdir = repo / ".git" / "worktrees" / path.name
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    path.mkdir(parents=True)
    (path / ".git").write_text(f"gitdir: {gitdir}\n")
    return path


def _resolver() -> ProjectResolver:
    return ProjectResolver(ignore=())


def test_a_git_launch_directory_floors_to_its_repository_shared_by_linked_worktrees(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "alpha")
    linked = _worktree(repo, tmp_path / "alpha-wt")
    main = resolve_floor(str(repo / "src"), _resolver())
    other = resolve_floor(str(linked), _resolver())
    assert main.git and main.root == str(repo)
    assert main.project_id == other.project_id
    assert main.project_id == session_project(str(repo / "src"), _resolver())
    assert f"Git repository at {repo} " in main.describe()


def test_a_directory_without_git_floors_to_exactly_itself(tmp_path: Path) -> None:
    (tmp_path / "plain" / "sub").mkdir(parents=True)
    floor = resolve_floor(str(tmp_path / "plain"), _resolver())
    sub = resolve_floor(str(tmp_path / "plain" / "sub"), _resolver())
    assert not floor.git and floor.project_id != sub.project_id
    assert f"exactly in {tmp_path / 'plain'} " in floor.describe()


@pytest.mark.parametrize("launch", ["relative/dir", "/nonexistent/moraine/launch"])
def test_a_launch_directory_without_a_project_is_a_clear_error(launch: str) -> None:
    with pytest.raises(ConfigError, match="--project-only"):
        resolve_floor(launch, _resolver())


def test_a_session_without_an_absolute_existing_directory_has_no_project() -> None:
    assert session_project(None) is None
    assert session_project("relative/dir") is None
    assert session_project("/nonexistent/moraine/cwd", _resolver()) is None


def _codex(path: Path, uuid: str, cwd: str) -> None:
    records = [
        {"timestamp": "2026-04-29T12:00:00.000Z", "type": "session_meta",
         "payload": {"id": uuid, "timestamp": "2026-04-29T12:00:00.000Z", "cwd": cwd}},
        {"timestamp": "2026-04-29T12:00:01.000Z", "type": "event_msg",
         "payload": {"type": "user_message", "message": f"hello from {cwd}"}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_ingest_records_each_sessions_project_and_the_floor_keeps_only_its_own(
    tmp_path: Path, store: Store, ingest_into_store: object
) -> None:
    alpha, beta = _repo(tmp_path / "alpha"), _repo(tmp_path / "beta")
    traces = tmp_path / "traces"
    traces.mkdir()
    sessions = {"a": str(alpha / "src"), "b": str(beta), "g": "/nonexistent/moraine/ghost"}
    for name, cwd in sessions.items():
        _codex(traces / f"{name}.jsonl", f"0196c000-0000-7000-8000-00000000000{ord(name) % 10}", cwd)
    ingest_into_store([traces], source="codex")  # type: ignore[operator]
    keys = {
        name: session_key("codex", f"0196c000-0000-7000-8000-00000000000{ord(name) % 10}")
        for name in sessions
    }
    stored = dict(store.query(f"SELECT session_key, project_id FROM {store.table('sessions')} FINAL"))
    assert stored[keys["a"]] == resolve_floor(str(alpha)).project_id
    assert stored[keys["b"]] == resolve_floor(str(beta)).project_id
    assert stored[keys["g"]] is None
    floor = resolve_floor(str(alpha))
    assert [in_floor(store, floor, keys[n]) for n in "abg"] == [True, False, False]
    assert all(in_floor(store, None, keys[n]) for n in "abg")
    condition, params = project_condition(store, floor.project_id)
    rows = store.query(f"SELECT DISTINCT session_key FROM {store.table('events')} WHERE {condition}", params)
    assert [int(r[0]) for r in rows] == [keys["a"]]
