"""Schemathesis fuzzes the HTTP facade from its generated OpenAPI document: every answer matches the document."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from generated.tools import TOOLS

from handlers import Deps, Settings, load_handlers
from moraine.access import Access
from moraine.server.http_app import build_http_app
from moraine.server.mcp_app import build_mcp_server
from moraine.server.service import ToolService
from moraine.store.client import Store


@pytest.fixture(scope="module")
def facade_schema(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The facade's OpenAPI schema, loaded in-process from the app it describes (real handlers, empty store),
    behind the daemon's gate and called with the install's secret (the document declares it)."""
    database = f"t_{uuid.uuid4().hex[:16]}"
    store = Store.open(store_dsn, database=database)
    service = ToolService(
        Deps(store, Settings(cursor_secret=b"f" * 32), launch_dir=tmp_path_factory.mktemp("launch")),
        load_handlers(),
    )
    access = Access.at(tmp_path_factory.mktemp("run") / "http-secret")
    app = build_http_app(service, build_mcp_server(service), access)  # the gated app, as the daemon serves it
    headers = {"Authorization": f"Bearer {access.secret.current()}", "Host": "127.0.0.1"}
    try:
        schema = schemathesis.openapi.from_asgi("/openapi.json", app, headers=headers)
        schema.config.update(headers=headers)
        yield schema
    finally:
        store.command(f"DROP DATABASE IF EXISTS {database}")
        store.close()


def test_facade_answers_every_generated_request_with_a_documented_envelope(facade_schema: Any) -> None:
    operations = [result.ok() for result in facade_schema.get_all_operations()]
    assert sorted(op.path for op in operations) == [f"/v1/tools/{t}" for t in sorted(TOOLS)]
    answered: dict[str, int] = {}
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def answer(case: Any) -> None:
            response = case.call()
            case.validate_response(response)
            envelope = response.json()
            answered[envelope["schema_version"]] = answered.get(envelope["schema_version"], 0) + 1
            assert envelope["tool"] == operation.path.rsplit("/", 1)[-1]
            if envelope["schema_version"] == "moraine.mcp.error.v1":
                assert envelope["error"]["code"] != "internal_error", envelope["error"]

        answer()
    assert answered.get("moraine.mcp.error.v1", 0) > 0
    assert sum(answered.values()) >= 4 * 10, answered
