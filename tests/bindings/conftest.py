"""Real server responses of every kind, and a copy of the schema files of ``spec/`` (what a client author gets)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fixtures.served import CORPUS_DAY, served_corpus

from moraine.server.service import ToolService

SPEC = Path(__file__).resolve().parents[2] / "spec"


def _call(service: ToolService, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return anyio.run(service.call, tool, arguments).envelope


@pytest.fixture(scope="session")
def responses(
    store_dsn: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, dict[str, Any]]]:
    """One real envelope of each kind: every tool, every open kind, and errors of two tools."""
    with served_corpus(store_dsn, tmp_path_factory.mktemp("bindings-corpus")) as service:
        search = _call(service, "search_sessions", {"query": "retry loop fetchWithBackoff"})
        hit = search["data"]["results"][0]["open"]
        yield {
            "search_sessions": search,
            "list_sessions": _call(service, "list_sessions", {**CORPUS_DAY, "limit": 3}),
            "file_attention sessions": _call(
                service, "file_attention", {"path": "src/net/retry.py", "scope": "all"}
            ),
            "file_attention events": _call(
                service,
                "file_attention",
                {"path": "src/net/retry.py", "scope": "all", "granularity": "events"},
            ),
            "open session": _call(service, "open", {"id": hit["session_id"], "limit": 2}),
            "open turn": _call(service, "open", {"id": hit["turn_id"], "limit": 2}),
            "open event": _call(service, "open", {"id": hit["event_id"]}),
            "error open": _call(service, "open", {"id": "not-a-valid-id"}),
            "error search_sessions": _call(service, "search_sessions", {"query": "  "}),
        }


@pytest.fixture
def spec_schemas(tmp_path: Path) -> Path:
    """Copy every ``*.schema.json`` of ``spec/`` (keeping its layout, so relative $refs resolve) to a tmp dir."""
    target = tmp_path / "spec"
    for path in SPEC.rglob("*.schema.json"):
        if "examples" in path.relative_to(SPEC).parts:
            continue
        (target / path.relative_to(SPEC)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / path.relative_to(SPEC))
    assert (target / "error.schema.json").exists() and (target / "open" / "response.schema.json").exists()
    return target
