"""``$MORAINE_HOME`` is user-only: a too-open install is tightened once at start, new files are created 0600/0700."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from moraine.config import Config
from moraine.private_files import chdb_directory, secure_home, tighten_tree


def _old_install(home: Path) -> list[Path]:
    """Build a home the way an install before this rule left it: 0755 directories, 0644 files, one 0755 file."""
    (home / "store" / "data" / "moraine" / "events" / "all_1_1_0").mkdir(parents=True)
    (home / "run").mkdir()
    files = [
        home / "config.toml",
        home / "cursor-secret",
        home / "store" / "data" / "moraine" / "events" / "all_1_1_0" / "data.bin",
        home / "run" / "daemon.json",
    ]
    for file in files:
        file.write_text("x")
        os.chmod(file, 0o644)
    os.chmod(home / "run" / "daemon.json", 0o755)
    for directory in [home, *(p for p in home.rglob("*") if p.is_dir())]:
        os.chmod(directory, 0o755)
    return files


def _modes(home: Path) -> dict[str, int]:
    return {str(p.relative_to(home)): stat.S_IMODE(p.lstat().st_mode) for p in [home, *home.rglob("*")]}


def test_an_existing_install_with_0755_and_0644_is_tightened_to_0700_and_0600(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    _old_install(home)
    changed = tighten_tree(home)
    modes = _modes(home)
    assert modes == {
        ".": 0o700,
        "config.toml": 0o600,
        "cursor-secret": 0o600,
        "run": 0o700,
        "run/daemon.json": 0o700,
        "store": 0o700,
        "store/data": 0o700,
        "store/data/moraine": 0o700,
        "store/data/moraine/events": 0o700,
        "store/data/moraine/events/all_1_1_0": 0o700,
        "store/data/moraine/events/all_1_1_0/data.bin": 0o600,
    }
    assert len(changed) == len(modes)
    assert tighten_tree(home) == []  # already tight: nothing to do the second time


def test_a_symlink_in_the_home_is_not_followed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    outside = tmp_path / "shared.txt"
    outside.write_text("someone else's")
    os.chmod(outside, 0o644)
    (home / "link").symlink_to(outside)
    tighten_tree(home)
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644


def test_the_users_own_home_directory_is_never_walked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    os.chmod(tmp_path, 0o755)
    assert tighten_tree(tmp_path) == []
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755


def test_secure_home_sets_umask_077_and_tightens_a_chdb_store_kept_outside_the_home(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    elsewhere = tmp_path / "elsewhere" / "store"
    elsewhere.mkdir(parents=True, mode=0o755)
    (elsewhere / "part.bin").write_text("x")
    os.chmod(elsewhere / "part.bin", 0o644)
    os.chmod(elsewhere, 0o755)
    config = Config(home=home, store_dsn=f"chdb://{elsewhere}")
    changed = secure_home(config)
    assert set(changed) == {elsewhere, elsewhere / "part.bin"}
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((elsewhere / "part.bin").stat().st_mode) == 0o600
    created = home / "new-file"
    created.write_text("y")
    (home / "new-dir").mkdir()
    assert stat.S_IMODE(created.stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "new-dir").stat().st_mode) == 0o700


def test_chdb_directory_is_the_path_of_an_embedded_dsn_only() -> None:
    assert chdb_directory("chdb:///var/lib/moraine/store") == Path("/var/lib/moraine/store")
    assert chdb_directory("http://u:p@localhost:8123") is None
