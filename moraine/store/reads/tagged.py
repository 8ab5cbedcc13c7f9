"""Several key lookups in one statement: each branch's row travels as one tuple, tagged with its branch name.

A statement costs more than its rows on small lookups (parsing, planning, opening each table's parts), so the reads
of one tool call that do not depend on each other's results go together: ``SELECT 'tag', tuple(columns) FROM ...
UNION ALL ...``. The branches' tuples differ in shape, so the union's column is a ``Variant`` of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moraine.store.client import Store

__all__ = ["Branch", "query_tagged"]

# Without it a union of differently shaped tuples has no common type.
_SETTINGS = {"use_variant_as_common_type": 1}


@dataclass(frozen=True, slots=True)
class Branch:
    """One lookup: ``tag`` names it (Moraine's text, never user input), ``columns`` and ``source`` are SQL."""

    tag: str
    columns: str  # comma-separated expressions, returned in this order as one tuple
    source: str  # what follows FROM (table, FINAL, WHERE, ORDER BY, LIMIT), with {name:Type} parameters


def query_tagged(
    store: Store, branches: Sequence[Branch], parameters: Mapping[str, Any]
) -> dict[str, list[tuple[Any, ...]]]:
    """Run every branch in one statement and return its rows by tag (a branch with no row maps to [])."""
    sql = " UNION ALL ".join(
        f"SELECT '{branch.tag}' AS tag, tuple({branch.columns}) AS row FROM {branch.source}"
        for branch in branches
    )
    out: dict[str, list[tuple[Any, ...]]] = {branch.tag: [] for branch in branches}
    for tag, row in store.query(sql, parameters, settings=_SETTINGS):
        out[tag].append(tuple(row))
    return out
