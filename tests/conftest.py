"""Shared fixtures: one chDB directory per pytest process, one fresh ClickHouse database per test.

chDB allows one engine (one directory) per process, so every test shares the session's directory and gets its own
database instead. When ``CLICKHOUSE_URL`` is set, the same fixtures run against that server; with ``MORAINE_TEST_STORE=http`` they
run over HTTP against the test-only endpoint on chDB (``tests/clickhouse_http.py``).

- ``store``: a migrated ``Store`` on a fresh database, dropped after the test. The migrations run once per session,
  into a template database; each test's database is a copy of the template's tables (their DDL as ClickHouse reports
  it, views last) and its ``schema_migrations`` rows, which costs a quarter of migrating anew (0.17 s against 0.69 s
  per test, 329 tests) and is checked against a migrated database by ``tests/test_store_template.py``.
- ``ingest_into_store``: a callable ``(paths, source="codex", harness=None, **source_fields) -> IngestSummary``
  that ingests files/directories into ``store`` through the real pipeline (tests use it to build corpora).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from moraine.errors import StoreError
from moraine.store.client import Store
from tests.tiers import mark_slow, slow_files_first

# Tests move HOME for the processes they start; the redaction ruleset's translation (built once in 10 to 20 s, see
# moraine.redact) stays in the real user cache so that each of those processes finds it.
os.environ.setdefault("XDG_CACHE_HOME", str(Path.home() / ".cache"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of the files ``tests/tiers.py`` lists as ``slow`` (the fast tier, ``-m "not slow"``, skips them)
    and run those files first."""
    mark_slow(items)
    slow_files_first(items)


@pytest.fixture(scope="session")
def chdb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return this pytest process's one chDB directory."""
    return tmp_path_factory.mktemp("chdb") / "store"


@pytest.fixture(scope="session")
def clickhouse_http_url(chdb_dir: Path) -> Iterator[str]:
    """Serve ClickHouse's HTTP interface over the session's chDB directory (``tests/clickhouse_http.py``)."""
    from tests.clickhouse_http import ClickHouseHttpEndpoint

    with ClickHouseHttpEndpoint(str(chdb_dir)) as endpoint:
        yield endpoint.url


@pytest.fixture(scope="session")
def store_dsn(request: pytest.FixtureRequest, chdb_dir: Path) -> str:
    """Return the DSN every test store lives under.

    ``CLICKHOUSE_URL`` (a real server) wins; ``MORAINE_TEST_STORE=http`` runs the suite over HTTP against the test
    endpoint on chDB; otherwise the session's chDB directory.
    """
    url = os.environ.get("CLICKHOUSE_URL")
    if url:
        return url
    if os.environ.get("MORAINE_TEST_STORE") == "http":
        return str(request.getfixturevalue("clickhouse_http_url"))
    return f"chdb://{chdb_dir}"


@pytest.fixture(scope="session")
def store_templates() -> Iterator[Callable[[str], Store]]:
    """Yield ``template(dsn)``: this session's migrated template database under ``dsn``, made on first use (a module
    may serve its stores from another DSN); every template is dropped at the end."""
    made: dict[str, Store] = {}

    def template(dsn: str) -> Store:
        if dsn not in made:
            made[dsn] = Store.open(dsn, database=f"t_template_{uuid.uuid4().hex[:12]}")
        return made[dsn]

    yield template
    for opened in made.values():
        try:
            opened.command(f"DROP DATABASE IF EXISTS {opened.database}")
        except StoreError:  # served by a test endpoint already stopped: its temporary directory goes with it
            pass
        opened.close()


def copy_template(template: Store, database: str) -> None:
    """Create ``database`` with the template's tables and views and its record of applied migrations."""
    rows = template.query(
        "SELECT engine = 'MaterializedView', create_table_query FROM system.tables WHERE database = {db:String}",
        {"db": template.database},
    )
    template.command(f"CREATE DATABASE {database}")
    for _, ddl in sorted(rows):  # tables before the views that write into them
        template.command(ddl.replace(f"{template.database}.", f"{database}."))
    template.command(
        f"INSERT INTO {database}.schema_migrations (version, name, applied_at) "
        f"SELECT version, name, applied_at FROM {template.table('schema_migrations')}"
    )


@pytest.fixture
def store(store_dsn: str, store_templates: Callable[[str], Store]) -> Iterator[Store]:
    """Yield a migrated store on a fresh, uniquely named database (a copy of the template); drop it afterwards."""
    database = f"t_{uuid.uuid4().hex[:16]}"
    copy_template(store_templates(store_dsn), database)
    opened = Store.open(store_dsn, database=database)
    try:
        yield opened
    finally:
        opened.command(f"DROP DATABASE IF EXISTS {database}")
        opened.close()


@pytest.fixture
def migrated_anew(store_dsn: str) -> Iterator[Store]:
    """Yield a store whose database the migrations made in this test (for tests of the migrations themselves)."""
    opened = Store.open(store_dsn, database=f"t_{uuid.uuid4().hex[:16]}")
    try:
        yield opened
    finally:
        opened.command(f"DROP DATABASE IF EXISTS {opened.database}")
        opened.close()


IngestIntoStore = Callable[..., Any]


@pytest.fixture
def ingest_into_store(store: Store) -> IngestIntoStore:
    """Return a function that ingests ``paths`` (files or directories) into ``store`` as one source."""

    def ingest(
        paths: Sequence[Path | str],
        source: str = "codex",
        harness: str | None = None,
        **options: Any,
    ) -> Any:
        from moraine.ingest.pipeline import (
            ingest_paths,
        )  # imported late: tests of other layers need not load it

        return ingest_paths(
            store,
            [Path(p) for p in paths],
            source=source,
            harness=harness or _default_harness(source),
            **options,
        )

    return ingest


def _default_harness(source: str) -> str:
    from moraine.config import harness_for_source

    return harness_for_source(source)


@pytest.fixture(scope="session", autouse=True)
def _stop_leftover_daemons(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Stop every daemon a test's ``moraine mcp`` started (under this session's temp homes) when the run ends."""
    yield
    from tests.e2e.daemon_support import HOME_PREFIX

    roots = (str(tmp_path_factory.getbasetemp()), f"/tmp/{HOME_PREFIX}")
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            if b"moraine.daemon" not in cmdline and b"serve" not in cmdline:
                continue
            environ = dict(
                item.split(b"=", 1) for item in (proc / "environ").read_bytes().split(b"\0") if b"=" in item
            )
        except OSError:
            continue
        home = environ.get(b"MORAINE_HOME", b"").decode(errors="replace")
        if home.startswith(roots) and int(proc.name) != os.getpid():
            _terminate(int(proc.name))


def _terminate(pid: int) -> None:
    import signal
    import time

    try:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            os.kill(pid, 0)
            time.sleep(0.05)  # bounded wait for a process exit (no event to wait on for a non-child)
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return


@pytest.fixture(autouse=True)
def _restore_umask() -> Iterator[None]:
    """Undo a command's ``umask 077`` after each test (CLI commands run in-process set it for the process's life)."""
    previous = os.umask(0o022)
    os.umask(previous)
    try:
        yield
    finally:
        os.umask(previous)
