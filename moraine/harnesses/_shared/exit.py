"""Exit statuses of tool runs: read from a recorded number or an output header, bounded to a 32-bit integer."""

from __future__ import annotations

import re
from typing import Any

from moraine.harnesses._shared.fields import as_int

__all__ = ["as_exit_code", "exit_code_in_header"]

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
# Exit-status headers sit at the top of an output; never read one out of the command's own output further down.
_HEADER_CHARS = 512


def as_exit_code(value: Any) -> int | None:
    """Return ``value`` as an exit code when it is an integral number that fits 32 bits, else None."""
    number = as_int(value)
    if number is None or not _INT32_MIN <= number <= _INT32_MAX:
        return None
    return number


def exit_code_in_header(text: str, pattern: re.Pattern[str]) -> int | None:
    """Return the exit code ``pattern`` (one group of digits) finds in the first lines of ``text``."""
    match = pattern.search(text[:_HEADER_CHARS])
    return as_exit_code(int(match.group(1))) if match else None
