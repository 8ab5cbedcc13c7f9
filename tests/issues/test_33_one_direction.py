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


# What the store may use besides itself: values and rules that sit below it (IDs, errors, ranking constants, the
# query's terms, the read side's placeholder, the harness registry for display names). The project floor, the
# semantic ranker, the server and the handlers sit above it and pass what it needs in.
_BELOW_THE_STORE = ("moraine.store", "moraine.ids", "moraine.errors", "moraine.ranking", "moraine.terms",
                    "moraine.placeholders", "moraine.harnesses")  # fmt: skip


def test_the_store_imports_nothing_that_sits_above_it() -> None:
    sources = sorted((ROOT / "moraine" / "store").rglob("*.py"))
    assert sources, "moraine/store has no sources: the path above is wrong"
    above = {
        str(path.relative_to(ROOT)): sorted(
            m
            for m in imported_modules(path)
            if (m.startswith("moraine.") or m == "handlers" or m.startswith("handlers."))
            and not m.startswith(_BELOW_THE_STORE)
        )
        for path in sources
    }
    assert {path: modules for path, modules in above.items() if modules} == {}
