"""The paths of the daemon's own HTTP endpoints (served by ``app``, used by ``client`` and ``report``)."""

from __future__ import annotations

from moraine.hooks.run import HOOK_PATH  # named there: the hook process imports the standard library only

__all__ = [
    "AGENTS_PATH",
    "ATTACH_PATH",
    "CALL_PATH",
    "FORGET_PATH",
    "HEALTH_PATH",
    "HOOK_PATH",
    "STATUS_PATH",
    "USAGE_PATH",
]

HEALTH_PATH = "/v1/daemon/health"
CALL_PATH = "/v1/daemon/call"
ATTACH_PATH = "/v1/daemon/attach"
STATUS_PATH = "/v1/daemon/status"
FORGET_PATH = "/v1/daemon/forget"
AGENTS_PATH = "/v1/daemon/agents"
USAGE_PATH = "/v1/daemon/usage"
