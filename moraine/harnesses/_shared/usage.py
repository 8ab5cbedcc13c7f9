"""Token usage as a trace records it -> ``TokenUsage`` on the events of the model call that used it.

Harnesses name the counts differently (``input``/``output``/``cacheRead``, ``prompt_tokens``/``completion_tokens``,
``input_tokens``/``cached_input_tokens``...): ``token_usage`` reads one usage object under the key names a harness
declares in a ``UsageKeys`` (several candidates per count, dotted paths into nested objects); ``read_usage`` reads
one key per count and leaves a negative count out; ``attach_usage`` puts usage on the first event a model call
produced (one call, counted once); ``cached_left_out`` converts an OpenAI-style prompt count (cached tokens
included) to Moraine's input (``TokenUsage``: cached tokens left out).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from dataclasses import dataclass, fields, replace

from moraine.harnesses._shared.fields import as_dict, as_int
from moraine.harness_api.model import Emitted, Event, EventType, TokenUsage

__all__ = ["CAMEL_CASE_USAGE", "UsageKeys", "attach_usage", "cached_left_out", "read_usage", "token_usage"]

_MODEL_EVENTS = frozenset({EventType.ASSISTANT_RESPONSE, EventType.REASONING, EventType.TOOL_CALL})


@dataclass(frozen=True, slots=True)
class UsageKeys:
    """The key paths (dotted for nested objects) one harness writes each count under; the first present wins."""

    input: Sequence[str] = ("input_tokens",)
    output: Sequence[str] = ("output_tokens",)
    cache_read: Sequence[str] = ("cache_read_input_tokens",)
    cache_write: Sequence[str] = ("cache_creation_input_tokens",)
    reasoning: Sequence[str] = ("reasoning_tokens",)


# The Vercel AI SDK's spelling (``inputTokens``, ``cacheReadTokens``...), which several TypeScript agents record.
CAMEL_CASE_USAGE = UsageKeys(
    input=("inputTokens",),
    output=("outputTokens",),
    cache_read=("cacheReadTokens",),
    cache_write=("cacheWriteTokens",),
    reasoning=("reasoningTokens",),
)


def token_usage(value: object, keys: UsageKeys) -> TokenUsage | None:
    """Return the usage an object records under ``keys``; None when it records no count at all."""
    usage = as_dict(value)
    if not usage:
        return None
    found = TokenUsage(
        _first(usage, keys.input),
        _first(usage, keys.output),
        _first(usage, keys.cache_read),
        _first(usage, keys.cache_write),
        _first(usage, keys.reasoning),
    )
    return None if found == _NO_USAGE else found


def read_usage(
    raw: Any,
    *,
    input: str,
    output: str,
    cache_read: str | None = None,
    cache_write: str | None = None,
    reasoning: str | None = None,
) -> TokenUsage | None:
    """Return the counts of ``raw`` under the given keys, or None when it is not a mapping or holds none of them.

    A count that is not a non-negative integer is left out (None), never an error: usage is bookkeeping.
    """
    spelled = (input, output, cache_read, cache_write, reasoning)
    keys = _READ_KEYS.get(spelled)
    if keys is None:  # a harness reads usage under one spelling: its keys are made once
        named = (cache_read, cache_write, reasoning)
        cache_read_keys, cache_write_keys, reasoning_keys = (() if key is None else (key,) for key in named)
        keys = UsageKeys((input,), (output,), cache_read_keys, cache_write_keys, reasoning_keys)
        _READ_KEYS[spelled] = keys
    usage = token_usage(raw, keys)
    if usage is None:
        return None
    negative = {name: None for name in _COUNTS if (getattr(usage, name) or 0) < 0}
    if negative:
        usage = replace(usage, **negative)
    return None if usage == _NO_USAGE else usage


_READ_KEYS: dict[tuple[str | None, ...], UsageKeys] = {}
_COUNTS = tuple(f.name for f in fields(TokenUsage))
_NO_USAGE = TokenUsage()


def cached_left_out(usage: TokenUsage | None) -> TokenUsage | None:
    """Return ``usage`` with its cache reads and writes taken out of its input, for a trace whose prompt count
    includes them (OpenAI's ``prompt_tokens``/``input_tokens``); never below zero."""
    if usage is None or usage.input is None:
        return usage
    return replace(usage, input=max(0, usage.input - (usage.cache_read or 0) - (usage.cache_write or 0)))


def _first(usage: dict[str, object], paths: Sequence[str]) -> int | None:
    for path in paths:
        value: object = usage
        for part in path.split("."):
            value = as_dict(value).get(part)
        count = as_int(value)
        if count is not None:
            return count
    return None


def attach_usage(items: Iterable[Emitted], usage: TokenUsage | None) -> None:
    """Put ``usage`` on the first assistant, reasoning or tool-call event among ``items`` (no-op without usage)."""
    if usage is None:
        return
    for item in items:
        if isinstance(item, Event) and item.type in _MODEL_EVENTS:
            item.usage = usage
            return
