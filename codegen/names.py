"""Names that can only hold valid values, so no template ever sanitises a name."""

from __future__ import annotations

import keyword
import re

__all__ = ["ClassName", "PythonIdentifier"]

_IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")
_CLASS = re.compile(r"^[A-Z][A-Za-z0-9]*$")


class PythonIdentifier(str):
    """A lower-case, non-reserved Python identifier (module, function or tool name)."""

    __slots__ = ()

    def __new__(cls, value: str) -> PythonIdentifier:
        if not _IDENTIFIER.match(value) or keyword.iskeyword(value):
            raise ValueError(f"{value!r} is not a valid lower-case Python identifier")
        return super().__new__(cls, value)


class ClassName(str):
    """A CapWords Python class name."""

    __slots__ = ()

    def __new__(cls, value: str) -> ClassName:
        if not _CLASS.match(value) or keyword.iskeyword(value):
            raise ValueError(f"{value!r} is not a valid CapWords class name")
        return super().__new__(cls, value)

    @classmethod
    def from_snake(cls, value: str) -> ClassName:
        """Return the CapWords form of a snake_case name (``search_sessions`` -> ``SearchSessions``)."""
        return cls("".join(part.capitalize() for part in value.split("_")))
