"""The ``[mcp]`` configuration table: ``project_only``."""

from __future__ import annotations

from pathlib import Path

import pytest

from moraine.config import Config
from moraine.errors import ConfigError
from moraine.projects.settings import project_only_configured


def _config(mcp: object) -> Config:
    return Config(home=Path("/tmp/h"), store_dsn="chdb:///tmp/h/store", extra={"mcp": mcp})


def test_project_only_defaults_to_off_and_reads_a_boolean() -> None:
    assert project_only_configured(Config(home=Path("/tmp/h"), store_dsn="chdb:///tmp/h/store")) is False
    assert project_only_configured(_config({"project_only": True})) is True


@pytest.mark.parametrize(
    ("mcp", "message"),
    [
        ({"project_only": "yes"}, "mcp.project_only must be true or false"),
        ({"project_onyl": True}, "mcp.project_onyl is not a known setting"),
        ("on", "mcp must be a table"),
    ],
)
def test_a_bad_mcp_table_is_a_clear_error(mcp: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        project_only_configured(_config(mcp))
