"""Map any exception raised while answering a tool call to the error body of the envelope."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from moraine.errors import MoraineError

__all__ = ["ErrorBody", "error_body"]

logger = logging.getLogger("moraine.server")
_INTERNAL_MESSAGE = "internal error in Moraine while handling {tool} ({kind}); the server log has the details"


@dataclass(frozen=True, slots=True)
class ErrorBody:
    code: str
    message: str
    details: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


def _json_details(details: dict[str, Any]) -> dict[str, Any]:
    """Return ``details`` as plain JSON (anything exotic becomes its string form)."""
    loaded: dict[str, Any] = json.loads(json.dumps(details, default=str))
    return loaded


def error_body(exc: BaseException, tool: str) -> ErrorBody:
    """Return the error body for ``exc``: Moraine errors keep their code; anything else is a logged internal_error."""
    if isinstance(exc, MoraineError):
        if exc.code == "internal_error":
            logger.error("internal error in %s: %s", tool, exc.message, exc_info=exc)
        return ErrorBody(exc.code, exc.message or exc.code, _json_details(exc.details))
    logger.error("unexpected failure in %s", tool, exc_info=exc)
    return ErrorBody("internal_error", _INTERNAL_MESSAGE.format(tool=tool, kind=type(exc).__name__), {})
