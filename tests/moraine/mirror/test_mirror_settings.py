"""Backends and routes in the configuration, and routing a session's directory to a backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from moraine.attention.project import ProjectResolver
from moraine.config import Config
from moraine.errors import ConfigError
from moraine.mirror.routing import Router
from moraine.mirror.settings import mirror_settings


def _config(**extra: object) -> Config:
    return Config(home=Path("/tmp/h"), store_dsn="chdb:///tmp/h/store", extra=dict(extra))


def test_credentials_come_from_environment_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = mirror_settings(
        _config(backends={"team": {"url": "https://ch.example:8443", "user_env": "MU", "password_env": "MP"}})
    )
    monkeypatch.setenv("MU", "mirror")
    monkeypatch.setenv("MP", "p@ss/word")
    assert settings.backends["team"].dsn() == "https://mirror:p%40ss%2Fword@ch.example:8443"
    monkeypatch.delenv("MP")
    with pytest.raises(ConfigError, match="environment variable MP is not set"):
        settings.backends["team"].dsn()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"backends": {"team": {"url": "ftp://x"}}}, "backends.team.url must be a string starting with"),
        (
            {"backends": {"team": {"url": "http://x", "pasword_env": "P"}}},
            "backends.team.pasword_env is not a known",
        ),
        (
            {"backends": {"team": {"url": "http://x", "database": "a-b"}}},
            "backends.team.database must be a plain",
        ),
        (
            {"routes": [{"glob": "/w/**", "backend": "nope"}]},
            r"routes\[0\].backend must name a configured backend",
        ),
        (
            {"backends": {"t": {"url": "http://x"}}, "routes": [{"glob": "", "backend": "t"}]},
            "glob must be a non-empty",
        ),
    ],
)
def test_malformed_backends_and_routes_are_clear_errors(extra: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        mirror_settings(_config(**extra))


def test_a_repository_file_names_the_backend_before_any_route(tmp_path: Path) -> None:
    settings = mirror_settings(
        _config(
            backends={"team": {"url": "http://a"}, "other": {"url": "http://b"}},
            routes=[{"glob": f"{tmp_path}/acme/**", "backend": "team"}],
        )
    )
    repo = tmp_path / "acme" / "tools"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    (repo / ".moraine.toml").write_text('backend = "other"\n')
    (tmp_path / "acme" / "svc").mkdir()
    router = Router(settings, ProjectResolver(ignore=()))
    assert router.backend_for(str(repo / "src")) == "other"
    assert router.backend_for(str(tmp_path / "acme" / "svc")) == "team"
    assert router.backend_for(str(tmp_path / "elsewhere")) is None
    assert router.backend_for(None) is None
    (repo / ".moraine.toml").write_text('backend = "unknown"\n')
    assert Router(settings, ProjectResolver(ignore=())).backend_for(str(repo)) == "team"  # ignored: the route
