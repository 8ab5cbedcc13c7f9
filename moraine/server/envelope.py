"""Build the response envelopes of the interface document (success and error)."""

from __future__ import annotations

from typing import Any

from generated.tools import ERROR_SCHEMA_VERSION, TOOLS
from moraine.server.failures import ErrorBody

__all__ = ["error_envelope", "success_envelope"]


def success_envelope(
    tool: str, request: dict[str, Any], data: dict[str, Any], warnings: list[str], elapsed_ms: int
) -> dict[str, Any]:
    """Return the success envelope of ``tool``."""
    return {
        "schema_version": TOOLS[tool].schema_version,
        "tool": tool,
        "request": request,
        "data": data,
        "warnings": list(warnings),
        "performance": {"elapsed_ms": elapsed_ms},
    }


def error_envelope(
    tool: str, request: dict[str, Any], error: ErrorBody, warnings: list[str], elapsed_ms: int
) -> dict[str, Any]:
    """Return the error envelope for a failed call of ``tool``."""
    return {
        "schema_version": ERROR_SCHEMA_VERSION,
        "tool": tool,
        "request": request,
        "error": error.as_json(),
        "warnings": list(warnings),
        "performance": {"elapsed_ms": elapsed_ms},
    }
