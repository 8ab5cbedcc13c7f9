"""The per-install secret file: created user-only, kept while good, replaced when missing, empty or short."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from moraine.access import SecretFile, ensure_secret
from moraine.access.secret import MIN_SECRET_CHARS, secret_matches


def test_a_new_secret_is_long_random_and_user_only(tmp_path: Path) -> None:
    path = tmp_path / "run" / "http-secret"
    first = ensure_secret(path)
    assert len(first) >= MIN_SECRET_CHARS
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert ensure_secret(path) == first  # kept while good
    assert ensure_secret(tmp_path / "other" / "http-secret") != first
    assert [p.name for p in path.parent.iterdir()] == ["http-secret"]  # no temporary file left behind


@pytest.mark.parametrize("content", ["", "\n", "short", "x" * (MIN_SECRET_CHARS - 1), "\xff\xfe"])
def test_an_empty_or_short_secret_is_replaced(tmp_path: Path, content: str) -> None:
    path = tmp_path / "http-secret"
    path.write_text(content, encoding="latin-1")
    fresh = ensure_secret(path)
    assert len(fresh) >= MIN_SECRET_CHARS and fresh != content.strip()
    assert path.read_text().strip() == fresh


def test_a_loose_secret_file_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "http-secret"
    path.write_text("k" * 43)
    os.chmod(path, 0o644)
    assert ensure_secret(path) == "k" * 43
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_daemon_follows_a_replaced_secret_and_keeps_the_last_good_one(tmp_path: Path) -> None:
    path = tmp_path / "http-secret"
    held = SecretFile(path)
    first = held.current()
    path.unlink()
    assert held.current() == first  # gone: the daemon keeps answering with the one it had
    second = ensure_secret(path)
    assert second != first and held.current() == second
    path.write_text("")
    assert held.current() == second  # broken: ignored


def test_secrets_are_compared_exactly() -> None:
    assert secret_matches("a" * 43, "a" * 43)
    assert not secret_matches("a" * 42, "a" * 43)
    assert not secret_matches("\udcff" * 43, "a" * 43)  # undecodable header bytes do not crash the check
