"""Issue 33: one direction between packages. ``handlers`` may import ``moraine``; ``moraine`` never imports
``handlers`` (the server finds the handler table through the ``moraine.tool_handlers`` entry point)."""

from __future__ import annotations

from pathlib import Path

from fixtures.imports import imported_modules

ROOT = Path(__file__).resolve().parents[2]


def _is_handlers(module: str) -> bool:
    return module == "handlers" or module.startswith("handlers.")


def test_no_module_under_moraine_imports_the_handlers_package() -> None:
    sources = sorted((ROOT / "moraine").rglob("*.py"))
    assert len(sources) > 100, "moraine/ has too few sources: the path above is wrong"
    offenders = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path) if _is_handlers(m))
        for path in sources
    }
    assert {path: modules for path, modules in offenders.items() if modules} == {}


def test_the_server_loads_the_handlers_table_through_the_entry_point() -> None:
    import handlers
    from moraine.handler_api import load_handler_table

    table = load_handler_table()
    assert sorted(table) == sorted(handlers.load_handlers())
    assert all(entry.handle.__module__ == f"handlers.{name}" for name, entry in table.items())
