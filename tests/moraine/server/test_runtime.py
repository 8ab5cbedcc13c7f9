"""The cursor-signing secret: kept across restarts, user-only, and replaced when its file is unusable."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from moraine.server.runtime import CURSOR_SECRET_FILE, cursor_secret


def test_the_secret_is_created_user_only_and_kept_across_restarts(tmp_path: Path) -> None:
    first = cursor_secret(tmp_path)
    path = tmp_path / CURSOR_SECRET_FILE
    assert len(first) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cursor_secret(tmp_path) == first
    assert [p.name for p in tmp_path.iterdir()] == [CURSOR_SECRET_FILE]  # no temporary file left behind


@pytest.mark.parametrize(
    "content",
    ["", "\n", "ab12", "00" * 31, "not hex at all, not hex at all, not hex at all, not hex at all!!"],
    ids=["empty", "newline", "short", "31-bytes", "not-hex"],
)
def test_an_empty_short_or_garbled_secret_file_is_regenerated(tmp_path: Path, content: str) -> None:
    path = tmp_path / CURSOR_SECRET_FILE
    path.write_text(content)
    path.chmod(0o644)
    secret = cursor_secret(tmp_path)
    assert len(secret) == 32 and secret != b"\0" * 32
    assert bytes.fromhex(path.read_text()) == secret
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cursor_secret(tmp_path) == secret
    assert [p.name for p in tmp_path.iterdir()] == [CURSOR_SECRET_FILE]
