"""Prices from genai-prices' bundled table: per model and day (a model's price can change on a date), offline.

genai-prices only fetches a newer table when asked to (``UpdatePrices``), which Moraine never does: the table is
the one the installed package ships, so a cost is reproducible from the version printed with it.

Tokens come in Moraine's convention (``TokenUsage``: ``input`` excludes cache reads and writes); genai-prices counts
cache reads and writes inside ``input_tokens``, so they are added back before pricing.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import genai_prices

__all__ = ["PRICE_SOURCE", "price_of", "price_source"]

PRICE_SOURCE = "genai-prices"


def price_source() -> dict[str, Any]:
    """Return where the prices come from: the package, its version, and that its bundled table is used."""
    return {"name": PRICE_SOURCE, "version": genai_prices.__version__, "table": "bundled with the package"}


def price_of(
    model: str, day: date, input: int, output: int, cache_read: int, cache_write: int
) -> Decimal | None:
    """Return the cost in US dollars of these tokens on ``model`` at the prices of ``day`` (UTC), or None when the
    table does not know the model."""
    if not model:
        return None
    usage = genai_prices.Usage(
        input_tokens=input + cache_read + cache_write,
        output_tokens=output,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
    )
    try:
        found = genai_prices.calc_price(
            usage, model, genai_request_timestamp=datetime(day.year, day.month, day.day, tzinfo=UTC)
        )
    except (LookupError, ValueError):  # a model the table does not know, or cannot price
        return None
    return Decimal(found.total_price)
