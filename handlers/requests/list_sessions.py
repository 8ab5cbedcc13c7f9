"""list_sessions: a real datetime range (end after start), a limit within the configured maximum, and a cursor
verified against the same filter and sort."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from handlers.requests.common import check_limit, ordered
from moraine.handler_api import Settings
from moraine.server.datetimes import parse_datetime
from moraine.store.reads.cursors import decode_list_cursor
from moraine.store.reads.listing import ListAnchor, to_epoch_ms

__all__ = ["ParsedListing", "parse"]


@dataclass(frozen=True, slots=True)
class ParsedListing:
    """A list_sessions request: the range ``[start, end)`` (``start_text``/``end_text`` as sent, echoed), the
    page's ``after`` anchor from the cursor (None: the first page), and ``filter_sig``, what a cursor is bound to."""

    start: datetime
    end: datetime
    start_text: str
    end_text: str
    limit: int
    cursor: str | None
    after: ListAnchor | None
    mode: str | None
    harness: str | None
    source: str | None
    sort: Literal["asc", "desc"]
    filter_sig: str

    def echo(self) -> dict[str, Any]:
        """The canonical request (the envelope's ``request``): datetimes as sent."""
        return {
            "start_datetime": self.start_text,
            "end_datetime": self.end_text,
            "limit": self.limit,
            "cursor": self.cursor,
            "mode": self.mode,
            "harness": self.harness,
            "source": self.source,
            "sort": self.sort,
        }


def parse(arguments: dict[str, Any], settings: Settings) -> ParsedListing:
    """Return the parsed list_sessions request.

    Raises:
        RequestError: an impossible datetime, an empty range, a limit above the maximum, or a cursor that is
            malformed, altered, minted by open or issued for another filter or sort.
    """
    start = parse_datetime(arguments["start_datetime"], "start_datetime")
    end = parse_datetime(arguments["end_datetime"], "end_datetime")
    ordered(start, end)
    limit = check_limit(arguments["limit"], settings.max_results)
    mode, harness, source = arguments["mode"], arguments["harness"], arguments["source"]
    sort: Literal["asc", "desc"] = "asc" if arguments["sort"] == "asc" else "desc"
    signature = json.dumps([to_epoch_ms(start), to_epoch_ms(end), mode, harness, source, sort])
    after = None
    if arguments["cursor"] is not None:
        decoded = decode_list_cursor(settings.cursor_secret, arguments["cursor"], signature)
        after = ListAnchor(decoded.updated_ms, decoded.key)
    return ParsedListing(
        start=start,
        end=end,
        start_text=arguments["start_datetime"],
        end_text=arguments["end_datetime"],
        limit=limit,
        cursor=arguments["cursor"],
        after=after,
        mode=mode,
        harness=harness,
        source=source,
        sort=sort,
        filter_sig=signature,
    )
