"""Issue 33: ClickHouse SQL is written only under ``moraine/store/``.

Outside it, no module that reaches the store (importing ``moraine.store`` or the handlers' ``Deps``) holds a SQL
statement in a string, and no call to a store method (``query``, ``command``, ``insert``...) is handed one. SQLite
readers of agents' own databases do neither, so nothing is allowed by name.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATEMENT = re.compile(
    r"\b(SELECT|INSERT\s+INTO|ALTER\s+TABLE|DELETE\s+FROM|OPTIMIZE\s+TABLE|TRUNCATE|DROP\s+TABLE|CREATE\s+TABLE"
    r"|KILL\s+QUERY)\b"
)
STORE_METHODS = {"query", "query_arrow", "query_df", "command", "insert", "insert_columns"}
REACHES_STORE = ("moraine.store", "moraine.handler_api")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string statements (docstrings and bare strings): prose, not statements sent anywhere."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def _sql_strings(node: ast.AST, prose: set[int]) -> list[str]:
    return [
        child.value
        for child in ast.walk(node)
        if isinstance(child, ast.Constant)
        and isinstance(child.value, str)
        and id(child) not in prose
        and STATEMENT.search(child.value)
    ]


def _reaches_store(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module]
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
            else []
        )
        if any(name == root or name.startswith(root + ".") for name in names for root in REACHES_STORE):
            return True
    return False


def sql_outside_the_store(source: str) -> list[str]:
    """The SQL strings of a module that reaches the store, and those handed to a store method anywhere."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    if _reaches_store(tree):
        return _sql_strings(tree, prose)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in STORE_METHODS
        ):
            for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
                found.extend(_sql_strings(argument, prose))
    return found


def _checked_sources() -> list[Path]:
    store = ROOT / "moraine" / "store"
    sources = [p for p in (ROOT / "moraine").rglob("*.py") if store not in p.parents]
    return sorted([*sources, *(ROOT / "handlers").rglob("*.py")])


def test_no_module_outside_the_store_writes_clickhouse_sql() -> None:
    sources = _checked_sources()
    assert len(sources) > 100, "too few sources: the paths above are wrong"
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sources
        if (found := sql_outside_the_store(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


@pytest.mark.parametrize(
    "source",
    [
        'from moraine.store.client import Store\nX = f"SELECT 1 FROM {t}"\n',
        'from moraine.handler_api import Deps\ndef f(deps):\n    deps.store.command("ALTER TABLE t DELETE WHERE 1")\n',
        'def f(store, t):\n    return store.query(f"DELETE FROM {t} WHERE k = 1")\n',
        'def f(remote):\n    remote.command("KILL QUERY WHERE 1 ASYNC")\n',
    ],
)
def test_the_guard_finds_sql_written_for_the_store(source: str) -> None:
    assert sql_outside_the_store(source)


@pytest.mark.parametrize(
    "source",
    [
        'from moraine.store.client import Store\n"""Reads with SELECT ... FINAL (prose)."""\n',
        'import sqlite3\nROWS = "SELECT key FROM cursorDiskKV"\ndef f(c):\n    return c.execute(ROWS)\n',
    ],
)
def test_the_guard_leaves_prose_and_sqlite_readers_alone(source: str) -> None:
    assert sql_outside_the_store(source) == []
