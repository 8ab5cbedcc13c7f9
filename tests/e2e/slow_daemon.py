"""Test harness: ``moraine serve`` whose search_sessions first runs a slow store query for two magic queries.

``endless`` sleeps in ClickHouse for a day (it only ends if killed); ``slow`` for about two seconds. Anything
else is answered normally. The cancellation tests run this as the daemon of a throwaway home.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import handlers

SLOW_SQL = {
    "endless": "SELECT sum(sleepEachRow(1)) FROM numbers(86400) SETTINGS max_block_size = 1",
    "slow": "SELECT sum(sleepEachRow(0.25)) FROM numbers(8) SETTINGS max_block_size = 1",
}
_load_handlers = handlers.load_handlers


def _load_slow_handlers() -> dict[str, handlers.HandlerEntry]:
    table = _load_handlers()
    entry = table["search_sessions"]

    def handle(request: Any, deps: handlers.Deps) -> handlers.Outcome:
        sql = SLOW_SQL.get(request.query.text)  # a ParsedSearch: its parsed query keeps the text
        if sql is not None:
            deps.store.query(sql)
        return entry.handle(request, deps)

    table["search_sessions"] = replace(entry, handle=handle)
    return table


if __name__ == "__main__":
    handlers.load_handlers = _load_slow_handlers
    from moraine.cli import main

    main(args=["serve", *sys.argv[1:]], prog_name="moraine")
