"""Issue 19, item 4: the read side (``moraine/store/``, ``handlers/``) takes nothing from ``moraine.ingest``.

What both sides need (the encrypted-reasoning placeholder) lives in ``moraine.placeholders``; this checks every
import statement of the read side, so a new one reaching into ingest fails here.
"""

from __future__ import annotations

from pathlib import Path

from fixtures.imports import imported_modules

ROOT = Path(__file__).resolve().parents[2]
READ_SIDE = (ROOT / "moraine" / "store", ROOT / "handlers")


def _is_ingest(module: str) -> bool:
    return module == "moraine.ingest" or module.startswith("moraine.ingest.")


def test_no_module_of_the_store_or_the_handlers_imports_moraine_ingest() -> None:
    sources = sorted(path for folder in READ_SIDE for path in folder.rglob("*.py"))
    assert sources, "the read side has no sources: the paths above are wrong"
    offenders = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path) if _is_ingest(m))
        for path in sources
    }
    assert {path: modules for path, modules in offenders.items() if modules} == {}


def test_the_placeholder_the_read_side_shows_comes_from_its_own_module() -> None:
    from moraine.ingest import rows
    from moraine.placeholders import ENCRYPTED_REASONING_PLACEHOLDER
    from moraine.store.reads import search

    assert rows.ENCRYPTED_REASONING_PLACEHOLDER is ENCRYPTED_REASONING_PLACEHOLDER
    assert search.ENCRYPTED_REASONING_PLACEHOLDER is ENCRYPTED_REASONING_PLACEHOLDER
