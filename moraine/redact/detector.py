"""A detector: one secret shape, as a pattern, the group holding the secret, and the pre-filter's triggers."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from moraine.redact.literals import max_width

__all__ = ["Detector", "compile_pattern", "detector"]


@dataclass(frozen=True, slots=True)
class Detector:
    kind: str  # what replaces the secret: [REDACTED:<kind>]
    pattern: str  # a Python ``re`` pattern, compiled when the detector first runs
    # Hyperscan patterns (matched case-blind), one of which matches inside every match of ``pattern``; None: the
    # detector has none, and runs over the whole of any text its own pattern (approximated) matches.
    triggers: tuple[str, ...] | None
    groups: tuple[int | str, ...]  # the secret is the first of these groups that took part in the match
    width: int | None  # the most characters a match spans (None: unbounded)
    flags: int = 0  # re flags
    accept: Callable[[str], bool] | None = None  # a last check on the secret (None: every match is one)

    def compile(self) -> re.Pattern[str]:
        """Return the compiled pattern."""
        return compile_pattern(self.pattern, self.flags)


def compile_pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """Compile a pattern (raises ``re.error``); a translated Rust pattern's ``[[`` is meant literally, as we read it."""
    with warnings.catch_warnings():  # "possible nested set"
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(source, flags)


def detector(
    kind: str,
    pattern: str,
    triggers: tuple[str, ...],
    groups: tuple[int | str, ...],
    flags: int = 0,
    accept: Callable[[str], bool] | None = None,
) -> Detector:
    """Return one of our own detectors (its width is measured from the pattern)."""
    return Detector(kind, pattern, triggers, groups, max_width(re.compile(pattern, flags)), flags, accept)
