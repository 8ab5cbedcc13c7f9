"""The registration table: every spec tool has exactly one handler, and every handler answers a spec tool."""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path

from generated.descriptors import DESCRIPTORS
from generated.tools import TOOLS
from handlers import load_handlers

ROOT = Path(__file__).resolve().parents[2]


def test_every_spec_tool_has_exactly_one_handler() -> None:
    manifest = json.loads((ROOT / "spec" / "manifest.json").read_text(encoding="utf-8"))
    spec_tools = {tool["name"] for tool in manifest["tools"]}
    table = load_handlers()
    assert set(table) == spec_tools == set(TOOLS) == set(DESCRIPTORS)
    for name, entry in table.items():
        assert entry.data_model is TOOLS[name].data_model
        assert entry.handle.__module__ == f"handlers.{name}"
        assert list(inspect.signature(entry.handle).parameters) == ["request", "deps"]
        assert entry.parse.__module__ == f"handlers.requests.{name}"
        assert list(inspect.signature(entry.parse).parameters) == ["arguments", "settings"]


def test_every_handler_module_answers_a_spec_tool() -> None:
    handler_modules = []
    for path in sorted((ROOT / "handlers").glob("*.py")):
        module = importlib.import_module(f"handlers.{path.stem}")
        if callable(getattr(module, "handle", None)):
            handler_modules.append(path.stem)
    assert sorted(handler_modules) == sorted(TOOLS)
