"""Where a Cline-family extension keeps its task folders: ``globalStorage/<extension id>/tasks/<task id>/``."""

from __future__ import annotations

from moraine.harnesses._shared.vscode import EDITORS, product_locations
from moraine.harnesses.declaration import Location

__all__ = ["READER", "task_locations"]

READER = "cline_task"  # declared by the cline harness, used by every harness of the family


def task_locations(prefix: str, extension: str) -> tuple[Location, ...]:
    """Return one source per editor (VS Code and the forks extensions run in) for the extension's tasks."""
    tasks = (("", f"globalStorage/{extension}/tasks/*/ui_messages.json"),)
    return product_locations(prefix, EDITORS, tasks, READER)
