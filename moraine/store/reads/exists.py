"""Existence check for a search's scope (a well-formed but unknown scope, or one outside the floor, is ``not_found``)."""

from __future__ import annotations

from typing import Any

from moraine.store.client import Store
from moraine.store.reads.floor import project_condition

__all__ = ["scope_exists"]


def scope_exists(store: Store, key: int, turn_seq: int | None, project_id: str | None) -> bool:
    """Return whether the session with this key (and this turn of it, when ``turn_seq`` is given) is stored, and
    belongs to the project when ``project_id`` is given (a project-only server's floor), in one statement."""
    table, where = store.table("sessions"), ["session_key = {key:UInt64}"]
    parameters: dict[str, Any] = {"key": key}
    if turn_seq is not None:
        table = store.table("turns")
        where.append("turn_seq = {turn:UInt32}")
        parameters["turn"] = turn_seq
    if project_id is not None:
        condition, floor_parameters = project_condition(store, project_id)
        where.append(condition)
        parameters.update(floor_parameters)
    return bool(store.query(f"SELECT 1 FROM {table} WHERE {' AND '.join(where)} LIMIT 1", parameters))
