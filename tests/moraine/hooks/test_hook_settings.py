"""``[hooks]``: the defaults, each setting read, a mistake named, and ``[mcp] project_only`` honoured."""

from __future__ import annotations

from pathlib import Path

import pytest

from moraine.config import load_config
from moraine.errors import ConfigError
from moraine.hooks.settings import HookSettings, hook_settings


def _settings(tmp_path: Path, text: str) -> HookSettings:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return hook_settings(load_config(path))


def test_defaults_are_the_gate_chosen_on_locomo(tmp_path: Path) -> None:
    found = _settings(tmp_path, "")
    assert (found.min_coverage, found.min_margin, found.max_hits) == (0.7, 0.05, 5)
    assert (found.deadline_ms, found.budget_tokens, found.project_only) == (1000, 1000, False)


def test_every_setting_is_read(tmp_path: Path) -> None:
    text = (
        "[hooks]\ndeadline_ms = 300\nbudget_tokens = 200\nmin_coverage = 0.4\nmin_margin = 0.1\nmax_hits = 2\n"
        "recent_sessions = 0\n[mcp]\nproject_only = true\n"
    )
    assert _settings(tmp_path, text) == HookSettings(300, 200, 0.4, 0.1, 2, 0, True)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[hooks]\nbudget = 5\n", "hooks.budget is not a known setting"),
        ("[hooks]\nmin_coverage = 1.5\n", "hooks.min_coverage must be a share"),
        ("[hooks]\ndeadline_ms = 0\n", "hooks.deadline_ms must be an integer"),
    ],
)
def test_a_mistake_is_named(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        _settings(tmp_path, text)
