"""Prices from genai-prices' bundled table: per model and day (a model's price can change on a date), offline.

genai-prices only fetches a newer table when asked to (``UpdatePrices``), which Moraine never does: the table is
the one the installed package ships, so a cost is reproducible from the version printed with it.

Tokens come in Moraine's convention (``TokenUsage``: ``input`` excludes cache reads and writes); genai-prices counts
cache reads and writes inside ``input_tokens``. Each kind's rate per token is learnt once per (model, day) from the
table, then the summed tokens are multiplied by it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from functools import lru_cache
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
    table does not know the model.

    The tokens are a sum over many calls, so they are priced at the model's base rate per token: a tier that
    depends on one request's size (some models cost more above 200,000 input tokens in one request) is not applied.
    """
    rates = _rates(model, day)
    if rates is None:
        return None
    return sum(
        (count * rate for count, rate in zip((input, output, cache_read, cache_write), rates, strict=True)),
        Decimal(0),
    )


_PROBE = 1000  # tokens of one kind priced to learn its rate: far below any tier's start


@lru_cache(maxsize=8192)
def _rates(model: str, day: date) -> tuple[Decimal, Decimal, Decimal, Decimal] | None:
    """Return the dollars per token of input, output, cache read and cache write on ``model`` on ``day``."""
    if not model:
        return None
    probes = (
        {"input_tokens": _PROBE},
        {"output_tokens": _PROBE},
        # genai-prices counts cached input inside input: all of these input tokens are the cached ones
        {"input_tokens": _PROBE, "cache_read_tokens": _PROBE},
        {"input_tokens": _PROBE, "cache_write_tokens": _PROBE},
    )
    when = datetime(day.year, day.month, day.day, tzinfo=UTC)
    for provider, name in _references(model):
        try:
            return tuple(  # type: ignore[return-value]
                Decimal(
                    genai_prices.calc_price(
                        genai_prices.Usage(**probe), name, provider_id=provider, genai_request_timestamp=when
                    ).total_price
                )
                / _PROBE
                for probe in probes
            )
        except (
            LookupError,
            ValueError,
        ):  # a model the table does not know (under this provider), or cannot price
            continue
    return None


def _references(model: str) -> list[tuple[str | None, str]]:
    """Return the (provider, model) pairs to look ``model`` up by: as written, then a router's ``provider/model``
    spelling (``anthropic/claude-sonnet-4``) under that provider, then its model part under any provider."""
    refs: list[tuple[str | None, str]] = [(None, model)]
    provider, slash, name = model.partition("/")
    if slash and provider and name:
        refs += [(provider, name), (None, name)]
    return refs
