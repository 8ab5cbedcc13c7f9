"""Public surfaces of the contract packages: ``__all__`` is sorted and names only what the module defines."""

from __future__ import annotations

import importlib

import pytest

MODULES = [
    "codegen",
    "handlers",
    "handlers.requests.common",
    "handlers.requests.file_attention",
    "handlers.requests.list_sessions",
    "handlers.requests.open",
    "handlers.requests.search_sessions",
    "moraine.access",
    "moraine.access.gate",
    "moraine.access.guard",
    "moraine.access.login",
    "moraine.access.secret",
    "moraine.handler_api",
    "moraine.handler_api.deps",
    "moraine.handler_api.outcome",
    "moraine.handler_api.table",
    "moraine.server",
    "moraine.server.disconnect",
    "moraine.server.envelope",
    "moraine.server.failures",
    "moraine.server.http_app",
    "moraine.server.mcp_app",
    "moraine.server.requests",
    "moraine.server.runtime",
    "moraine.server.schema_errors",
    "moraine.server.service",
    "moraine.server.transports",
]


@pytest.mark.parametrize("name", MODULES)
def test_all_is_sorted_and_every_name_exists(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported)
    assert exported, f"{name} exports nothing"
    for attribute in exported:
        assert hasattr(module, attribute), f"{name}.__all__ names missing {attribute}"
