"""Tag the store queries of one tool call so the call can be cancelled: a marker comment and a cancel flag.

The daemon binds a ``QueryTag`` to the thread answering a call; ``Store`` prefixes each statement with the tag's
marker comment (Moraine's own text, never user input) and refuses to start a statement once the tag is cancelled.
A running statement is stopped by ``KILL QUERY`` matching the marker in ``system.processes``.
"""

from __future__ import annotations

import secrets
import threading
from contextvars import ContextVar
from dataclasses import dataclass, field

from moraine.errors import CancelledError

__all__ = ["MARKER_PREFIX", "QueryTag", "current_tag"]

MARKER_PREFIX = "moraine-call:"


@dataclass(frozen=True, slots=True)
class QueryTag:
    """One tool call's tag: ``marker`` appears in the text of each of its statements."""

    token: str = field(default_factory=lambda: secrets.token_hex(8))
    cancelled: threading.Event = field(default_factory=threading.Event)

    @property
    def marker(self) -> str:
        return f"{MARKER_PREFIX}{self.token}"

    def tagged(self, sql: str) -> str:
        """Return ``sql`` prefixed with the marker comment.

        Raises:
            CancelledError: the call was cancelled; no further statement may start.
        """
        if self.cancelled.is_set():
            raise CancelledError("the tool call was cancelled")
        return f"/* {self.marker} */ {sql}"


current_tag: ContextVar[QueryTag | None] = ContextVar("moraine_query_tag", default=None)
