"""Where a Cline-family extension keeps its task folders: ``globalStorage/<extension id>/tasks/<task id>/``."""

from __future__ import annotations

from moraine.harnesses._shared.vscode import EDITORS, product_locations
from moraine.harness_api.declaration import Location

__all__ = ["API_READER", "READER", "api_history_locations", "task_locations"]

READER = "cline_task"  # declared by the cline harness, used by every harness of the family
API_READER = "cline_api_history"  # declared by the cline harness


def task_locations(prefix: str, extension: str) -> tuple[Location, ...]:
    """Return one source per editor (VS Code and the forks extensions run in) for the extension's tasks."""
    tasks = (("", f"globalStorage/{extension}/tasks/*/ui_messages.json"),)
    return product_locations(prefix, EDITORS, tasks, READER)


def api_history_locations(prefix: str, extension: str) -> tuple[Location, ...]:
    """Return one source per editor for the API histories of the extension's tasks (read where no UI messages are)."""
    histories = (("-api", f"globalStorage/{extension}/tasks/*/api_conversation_history.json"),)
    return product_locations(prefix, EDITORS, histories, API_READER)
