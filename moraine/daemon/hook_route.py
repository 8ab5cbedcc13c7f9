"""``POST /v1/daemon/hook``: what an agent's hook prints (``moraine.hooks.compose``), and one log line per hook.

The body is ``{"event", "harness", "session", "cwd", "prompt", "project_only", "deadline_ms"}`` (``moraine.hooks.run``
sends it; ``budget_tokens`` may lower the configured budget); the answer ``{"text", "tokens", "hits", "reason"?}``. The work stops at the hook's own deadline (its
process has gone by then). The log line names the event, the time taken, the tokens and the hits printed, or why
nothing was: never the prompt.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from moraine.daemon.routes import HOOK_PATH
from moraine.hooks.compose import Injection, compose, parse_hook_request
from moraine.hooks.settings import HookSettings
from moraine.server.service import ToolService

__all__ = ["hook_route"]

logger = logging.getLogger("moraine.hooks")


def _deadline(body: Any, settings: HookSettings) -> float:
    raw = body.get("deadline_ms") if isinstance(body, dict) else None
    if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0:
        return min(raw, settings.deadline_ms) / 1000
    return settings.deadline_ms / 1000


def _budget(body: Any, settings: HookSettings) -> HookSettings:
    """``settings`` with a smaller token budget when the body asks for one (never a larger one)."""
    raw = body.get("budget_tokens") if isinstance(body, dict) else None
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 < raw < settings.budget_tokens:
        return replace(settings, budget_tokens=raw)
    return settings


def hook_route(service: ToolService, settings: HookSettings) -> Route:
    """Return the hook route answering with ``service``'s tools under ``settings``."""

    async def hook(request: Request) -> Response:
        started = time.perf_counter()
        try:
            body: Any = json.loads(await request.body())
            wanted = parse_hook_request(body)
        except RecursionError:
            return JSONResponse({"detail": "body is nested too deeply"}, status_code=400)
        except (ValueError, UnicodeDecodeError) as exc:
            return JSONResponse({"detail": str(exc)}, status_code=400)
        injection: Injection | None = None
        with anyio.move_on_after(_deadline(body, settings)):
            injection = await compose(service, wanted, _budget(body, settings))
        if injection is None:
            injection = Injection(reason="past the hook's deadline")
        elapsed = (time.perf_counter() - started) * 1000
        if injection.text:
            logger.info(
                "hook %s (%s): injected %d tokens, %d hits, in %.0f ms",
                wanted.event,
                wanted.harness or "agent",
                injection.tokens,
                len(injection.hits),
                elapsed,
            )
        else:
            logger.info(
                "hook %s (%s): nothing injected (%s), in %.0f ms",
                wanted.event,
                wanted.harness or "agent",
                injection.reason,
                elapsed,
            )
        return JSONResponse(injection.to_json())

    return Route(HOOK_PATH, hook, methods=["POST"])
