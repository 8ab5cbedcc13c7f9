"""What the page's browser tests share: Debian's ``/usr/bin/chromium`` (a module importing this is skipped without
it), driven headless by Playwright on a fresh profile, and an app served under uvicorn on a free loopback port in a
thread. Screenshots go to ``artifacts/web/``."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        f"{CHROMIUM} is absent: install Debian's chromium package (apt-get install -y chromium) to run the "
        "web page's browser tests",
        allow_module_level=True,
    )

import uvicorn  # noqa: E402  (after the skip: nothing to import when the browser is absent)
from playwright.sync_api import BrowserContext, sync_playwright  # noqa: E402
from starlette.types import ASGIApp  # noqa: E402

__all__ = ["ARTIFACTS", "CHROMIUM", "CHROMIUM_FLAGS", "chromium", "served_app"]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class _Server(uvicorn.Server):
    def install_signal_handlers(self) -> None:
        """Leave signals to pytest (the server runs in a thread)."""


@contextmanager
def served_app(app: ASGIApp) -> Iterator[str]:
    """Serve ``app`` on a free loopback port until the block ends; yield its base URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)  # connections wait in the backlog until uvicorn accepts them: no readiness polling
    server = _Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listener.close()
        assert not thread.is_alive(), "uvicorn did not stop"


@contextmanager
def chromium(profile: Path) -> Iterator[BrowserContext]:
    """Start headless Chromium on the fresh profile directory ``profile`` (UTC, en-US, 1280x900)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900},
            timezone_id="UTC",
            locale="en-US",
        )
        try:
            yield context
        finally:
            context.close()
