"""Project identity: Git common directory unifies checkouts; non-Git directories are their own identity."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fixtures.attention.layout import Layout, build_layout

from moraine.attention.project import ProjectResolver


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    return build_layout(tmp_path)


def test_main_linked_and_agent_worktrees_share_one_project_and_the_tail(layout: Layout) -> None:
    resolver = ProjectResolver()
    placed = [
        resolver.place(str(root / "src" / "app.py"), None)
        for root in (layout.repo, layout.linked, layout.agent)
    ]
    assert [p.tail for p in placed] == ["src/app.py"] * 3
    assert [p.root for p in placed] == [str(layout.repo), str(layout.linked), str(layout.agent)]
    assert len({p.project_id for p in placed}) == 1
    assert placed[0].project_id.startswith("git:")


def test_non_git_directory_is_its_own_project_when_it_is_the_working_directory(layout: Layout) -> None:
    resolver = ProjectResolver()
    plain = resolver.place("src/app.py", str(layout.plain))
    repo = resolver.place("src/app.py", str(layout.repo))
    assert (plain.tail, plain.root) == ("src/app.py", str(layout.plain))
    assert plain.project_id.startswith("dir:")
    assert plain.project_id != repo.project_id


def test_relative_paths_resolve_against_the_working_directory(layout: Layout) -> None:
    placed = ProjectResolver().place("../src/./app.py", str(layout.linked / "docs"))
    assert placed.path == str(layout.linked / "src" / "app.py")
    assert (placed.tail, placed.root) == ("src/app.py", str(layout.linked))


def test_a_removed_agent_worktree_still_belongs_to_its_repository(layout: Layout) -> None:
    gone = layout.repo / ".claude" / "worktrees" / "gone" / "src" / "app.py"
    placed = ProjectResolver().place(str(gone), None)
    assert placed.root == str(layout.repo / ".claude" / "worktrees" / "gone")
    assert placed.tail == "src/app.py"
    assert placed.project_id == ProjectResolver().project_of(str(layout.repo))


def test_a_pruned_linked_worktree_metadata_still_points_at_the_common_directory(layout: Layout) -> None:
    expected = ProjectResolver().project_of(str(layout.repo))
    shutil.rmtree(layout.repo / ".git" / "worktrees" / "repo-feat")
    placed = ProjectResolver().place(str(layout.linked / "src" / "app.py"), None)
    assert (placed.root, placed.project_id) == (str(layout.linked), expected)


def test_file_outside_any_root_keeps_its_absolute_path_and_an_unknown_root(
    layout: Layout, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere" / "notes.txt"
    placed = ProjectResolver(ignore=(str(tmp_path.parent),)).place(str(outside), str(layout.plain))
    assert (placed.tail, placed.root, placed.project_id) == (str(outside.resolve()), None, "")


def test_relative_path_without_working_directory_has_unknown_root() -> None:
    placed = ProjectResolver().place("./src/app.py", None)
    assert (placed.path, placed.tail, placed.root, placed.project_id) == (
        "src/app.py",
        "src/app.py",
        None,
        "",
    )


def test_missing_working_directory_proves_no_root(tmp_path: Path) -> None:
    missing = tmp_path / "not-here"
    placed = ProjectResolver().place("src/app.py", str(missing))
    assert (placed.root, placed.project_id) == (None, "")


def test_home_directory_git_metadata_is_not_a_boundary(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "notes").mkdir()
    assert ProjectResolver(ignore=(str(tmp_path),)).git_boundary(str(tmp_path / "notes")) is None
    assert ProjectResolver(ignore=()).git_boundary(str(tmp_path / "notes")) is not None


def test_lookups_are_cached_per_directory(layout: Layout) -> None:
    resolver = ProjectResolver()
    first = resolver.git_boundary(str(layout.repo / "src"))
    shutil.rmtree(layout.repo / ".git")
    assert resolver.git_boundary(str(layout.repo / "src")) == first
    assert ProjectResolver().git_boundary(str(layout.repo / "src")) != first


def test_cache_entries_expire_so_a_new_repository_is_seen(tmp_path: Path) -> None:
    resolver = ProjectResolver(ignore=(), ttl_seconds=0.0)
    (tmp_path / "later" / "src").mkdir(parents=True)
    before = resolver.git_boundary(str(tmp_path / "later" / "src"))
    (tmp_path / "later" / ".git").mkdir()
    after = resolver.git_boundary(str(tmp_path / "later" / "src"))
    assert before is None or before.root != str(tmp_path / "later")
    assert after is not None and after.root == str(tmp_path / "later")
