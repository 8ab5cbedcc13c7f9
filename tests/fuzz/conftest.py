"""The fuzz target: the HTTP facade's ASGI app over an ingested corpus, loaded by schemathesis in-process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fixtures.served import served_corpus
from schemathesis.specs.openapi.schemas import OpenApiSchema

from moraine.server.http_app import build_facade_app
from moraine.server.service import ToolService


@pytest.fixture(scope="session")
def fuzz_service(store_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolService]:
    """A ToolService on real handlers over the ingested trace corpus (one per pytest process)."""
    with served_corpus(store_dsn, tmp_path_factory.mktemp("fuzz-corpus")) as service:
        yield service


@pytest.fixture(scope="session")
def fuzz_schema(fuzz_service: ToolService) -> OpenApiSchema:
    """The facade's own /openapi.json, loaded from the ASGI app (no socket)."""
    return schemathesis.openapi.from_asgi("/openapi.json", build_facade_app(fuzz_service))
