"""Another local account's web server on 127.0.0.1: it records the headers of every request a browser sends it.

Browsers send the cookies of 127.0.0.1 to every port of it, so whatever the user's browser holds for the daemon's
origin as a cookie, this server receives too. The server runs as the user ``nobody`` when the tests run as root
(CI does) and ``runuser`` and a system ``python3`` exist, else as the current user; it is a plain ``python3`` process either way, serving
until it is sent ``GET /quit``. Each request's headers are one JSON line on its stdout, written before it answers.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from types import TracebackType

import httpx2

__all__ = ["Neighbour"]

_SERVER = r"""
import http.server, json, threading

class Recorder(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        print(json.dumps({"path": self.path, "headers": [[k, v] for k, v in self.headers.items()]}), flush=True)
        body = b"<!doctype html><title>neighbour</title><p>a neighbour's page</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if self.path == "/quit":
            threading.Thread(target=self.server.shutdown).start()

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)  # a browser's idle connection blocks nothing
print(server.server_address[1], flush=True)
server.serve_forever()
"""


class Neighbour:
    """The other account's server: ``base`` to visit, ``requests()`` what it received once it has stopped."""

    def __init__(self) -> None:
        runuser = shutil.which("runuser")
        system_python = shutil.which(
            "python3", path="/usr/bin:/bin"
        )  # one ``nobody`` may run (not under /root)
        command = [sys.executable, "-I", "-c", _SERVER]
        self.account: str | None = None
        if os.geteuid() == 0 and runuser is not None and system_python is not None:
            self.account = "nobody"
            command = [runuser, "-u", self.account, "--", system_python, "-I", "-c", _SERVER]
        self._process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd="/",
            start_new_session=True,
        )  # its own process group: runuser's child (the server) is stopped with it
        assert self._process.stdout is not None
        first = self._process.stdout.readline()  # the port, once it listens (or nothing: it failed to start)
        if not first.strip().isdigit():
            self._kill()
            _, error = self._process.communicate(timeout=30)
            raise RuntimeError(f"the neighbour's server did not start: {first!r} {error}")
        self.port = int(first)
        self.base = f"http://127.0.0.1:{self.port}"
        self._received: list[dict[str, object]] | None = None

    def stop(self) -> list[dict[str, object]]:
        """Stop the server (``GET /quit``) and return every request it received before that one."""
        if self._received is None:
            httpx2.get(self.base + "/quit", timeout=30)
            out, error = self._process.communicate(timeout=30)
            assert self._process.returncode == 0, error
            lines = [json.loads(line) for line in out.splitlines() if line.strip()]
            self._received = [line for line in lines if line["path"] != "/quit"]
        return self._received

    def headers_received(self) -> list[dict[str, str]]:
        """Return the headers of every request the server received (names in lower case)."""
        received: list[dict[str, str]] = []
        for request in self.stop():
            headers = request["headers"]
            assert isinstance(headers, list)
            received.append({str(name).lower(): str(value) for name, value in headers})
        return received

    def cookies_received(self) -> list[str]:
        """Return every ``Cookie`` header value the server received."""
        return [headers["cookie"] for headers in self.headers_received() if "cookie" in headers]

    def __enter__(self) -> Neighbour:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._process.poll() is None:
            self._kill()
            self._process.communicate(timeout=30)

    def _kill(self) -> None:
        """Kill the server's process group (runuser and the server it runs)."""
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # already gone
