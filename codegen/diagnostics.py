"""Problems found in ``spec/``: collected, each with a severity and a location, reported together."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Diagnostic", "Severity", "SpecError"]


class Severity(StrEnum):
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem: where (spec file + JSON pointer) and what."""

    severity: Severity
    file: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.file}#{self.pointer}: {self.message}"


class SpecError(Exception):
    """``spec/`` has at least one error; ``diagnostics`` lists every problem found."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics
