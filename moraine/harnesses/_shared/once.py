"""Report a reader's persistent problems once: an unknown schema or a broken file stays broken across polls.

A reader that meets the same problem on every poll (a table without the expected columns, a file caught
mid-write) yields its ``IngestError`` the first time only, keyed by a token that names the problem.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from moraine.harness_api.model import IngestError
from moraine.harness_api.reader import ReadItem

__all__ = ["ReportsOnce"]


class ReportsOnce:
    """A reader that yields each problem (named by a token) a single time instead of on every poll."""

    def __init__(self) -> None:
        self._reported: set[Hashable] = set()

    def once(self, token: Hashable, error: IngestError, offset: int, line_no: int) -> Iterator[ReadItem]:
        """Yield ``error`` at the position the first time ``token`` is seen by this reader, nothing afterwards."""
        if token in self._reported:
            return
        self._reported.add(token)
        yield ReadItem(None, error, offset, line_no, offset, line_no)
