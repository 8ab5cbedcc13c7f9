"""Moraine's error tree. Every class carries the error-envelope code a tool call reports for it.

MoraineError                      internal_error
├── RequestError                  invalid_request
│   ├── InvalidIdError            invalid_id
│   └── UnsupportedEventTypeError unsupported_event_type
├── NotFoundError                 not_found
├── CancelledError                cancelled
├── DeadlineExceededError         deadline_exceeded
├── BusyError                     busy
├── ReadModelRefreshError         internal_error (details.reason = read_model_refresh, retryable)
├── IngestWorkerError             internal_error (an ingest worker process died or failed: the pass stops)
└── StoreError                    backend_failure
    └── ResourceExhaustedError    resource_exhausted
ConfigError                       (not a tool error: bad configuration, reported by the CLI)
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "BusyError",
    "CancelledError",
    "ConfigError",
    "DeadlineExceededError",
    "IngestWorkerError",
    "InvalidIdError",
    "MoraineError",
    "NotFoundError",
    "ReadModelRefreshError",
    "RequestError",
    "ResourceExhaustedError",
    "StoreError",
    "UnsupportedEventTypeError",
]


class MoraineError(Exception):
    """Root of Moraine's errors; ``code`` is the error-envelope code, ``details`` its ``error.details``."""

    code: ClassVar[str] = "internal_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details


class RequestError(MoraineError):
    code = "invalid_request"


class InvalidIdError(RequestError):
    code = "invalid_id"


class UnsupportedEventTypeError(RequestError):
    code = "unsupported_event_type"


class NotFoundError(MoraineError):
    code = "not_found"


class CancelledError(MoraineError):
    code = "cancelled"


class DeadlineExceededError(MoraineError):
    code = "deadline_exceeded"


class BusyError(MoraineError):
    code = "busy"


class ReadModelRefreshError(MoraineError):
    code = "internal_error"

    def __init__(self, retry_after_ms: int = 250) -> None:
        super().__init__(
            f"the search read model is refreshing; retry after {retry_after_ms} ms",
            reason="read_model_refresh",
            retryable=True,
            retry_after_ms=retry_after_ms,
        )


class IngestWorkerError(MoraineError):
    """An ingest worker process died or failed; nothing of its unfinished streams was published."""

    code = "internal_error"


class StoreError(MoraineError):
    code = "backend_failure"


class ResourceExhaustedError(StoreError):
    code = "resource_exhausted"


class ConfigError(Exception):
    """The configuration (file, environment or flags) is invalid; the message says where and why."""
