"""Query-side path rules: the tail a requested path is looked up under, and the launch project."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.attention.layout import Layout, build_layout

from moraine.attention.lookup import QueryPath, launch_project, reduce_path
from moraine.attention.project import ProjectResolver


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    return build_layout(tmp_path_factory.mktemp("lookup"))


def test_relative_path_resolves_from_the_launch_directory(layout: Layout) -> None:
    assert reduce_path("app.py", str(layout.repo / "src"), ProjectResolver()) == QueryPath(
        "src/app.py", False, str(layout.repo)
    )


def test_absolute_paths_lose_their_worktree_root(layout: Layout) -> None:
    for root in (layout.repo, layout.linked, layout.agent):
        assert reduce_path(str(root / "src/app.py"), None, ProjectResolver()) == QueryPath(
            "src/app.py", False, str(root)
        )


def test_missing_files_keep_launch_project_provenance(layout: Layout) -> None:
    assert reduce_path("docs/not-yet.md", str(layout.linked), ProjectResolver()) == QueryPath(
        "docs/not-yet.md", False, str(layout.linked)
    )


def test_non_git_launch_directory_contains_its_files(layout: Layout) -> None:
    assert reduce_path(str(layout.plain / "src/app.py"), str(layout.plain), ProjectResolver()) == QueryPath(
        "src/app.py", False, str(layout.plain)
    )


def test_paths_outside_every_root_are_literal(layout: Layout, tmp_path: Path) -> None:
    outside = str(tmp_path / "x" / "y.py")
    resolver = ProjectResolver(ignore=(str(tmp_path.parent),))
    assert reduce_path(outside, str(layout.plain), resolver) == QueryPath(outside, True, None)


def test_relative_path_without_launch_directory_is_its_own_tail() -> None:
    assert reduce_path("./src//app.py", None, ProjectResolver()) == QueryPath("src/app.py", False, None)


def test_launch_project_is_shared_by_worktrees_and_separate_for_plain_directories(layout: Layout) -> None:
    resolver = ProjectResolver()
    ids = {launch_project(str(root), resolver) for root in (layout.repo, layout.linked, layout.agent / "src")}
    assert len(ids) == 1 and None not in ids
    plain = launch_project(str(layout.plain), resolver)
    assert plain is not None and plain not in ids
    assert launch_project(str(layout.plain / "src"), resolver) != plain  # subdirectories stay separate


def test_launch_project_fails_closed_without_a_directory(tmp_path: Path) -> None:
    resolver = ProjectResolver(ignore=(str(tmp_path.parent),))
    assert launch_project(None, resolver) is None
    assert launch_project("relative/dir", resolver) is None
    assert launch_project(str(tmp_path / "missing"), resolver) is None
