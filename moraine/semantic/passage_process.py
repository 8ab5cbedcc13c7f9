"""The vectorizer's embedder in a child process, stopped (SIGSTOP) while tool calls run, so a search never shares
the CPU with a backlog of passages.

Lowering the embedding thread's priority was not enough on two cores: measured on a settled 1,000,000-record store,
a 3-term global hybrid search took p95 110-132 ms with the embedder at nice 19 beside it, against 97-105 ms with it
idle (the two share caches and memory bandwidth whatever the scheduler does). A stopped process takes nothing.

The parent side is ``PassageProcess`` (an ``Embedder`` for passages); the child is
``python -m moraine.semantic.passage_process FD THREADS``, answering pickled requests on the socket FD. On Linux the
child asks the kernel to kill it when the parent dies (PR_SET_PDEATHSIG), which also ends it while it is stopped;
elsewhere it runs unpaused and exits when the socket closes.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from moraine.child_env import child_command, child_cwd, child_env
from moraine.semantic.embedder import MODEL_NAME, SemanticUnavailableError, load_embedder

__all__ = ["PassageProcess", "main"]

_PR_SET_PDEATHSIG = 1
_CLOSE_SECONDS = 10.0
_PAUSABLE = sys.platform == "linux"


class PassageProcess:
    """Passages embedded by a child process; ``pause``/``resume`` stop and continue it (Linux; elsewhere no-ops).

    Start it from the thread that keeps using it: on Linux the child dies with that thread.
    """

    name = MODEL_NAME

    def __init__(self, threads: int = 1) -> None:
        ours, theirs = socket.socketpair()
        command = child_command("moraine.semantic.passage_process", str(theirs.fileno()), str(threads))
        try:
            self._process = subprocess.Popen(
                command, pass_fds=(theirs.fileno(),), env=child_env(), cwd=child_cwd()
            )
        except OSError as exc:
            ours.close()
            raise SemanticUnavailableError(f"cannot start the embedder process: {exc}") from exc
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        self._lock = threading.Lock()
        self._paused = False
        try:
            self._answer()  # the child reports once its model is loaded (or why it is not)
        except SemanticUnavailableError:
            self.close()
            raise

    @property
    def pid(self) -> int:
        return self._process.pid

    def _answer(self) -> Any:
        try:
            reply = self._conn.recv()
        except (EOFError, OSError) as exc:
            raise SemanticUnavailableError(
                f"the embedder process ended (exit status {self._process.poll()})"
            ) from exc
        if isinstance(reply, str):
            raise SemanticUnavailableError(reply)
        return reply

    def query(self, text: str) -> list[float]:
        """Return a query's vector (searches embed in-process; this is for completeness of the protocol)."""
        return self._ask(("query", text))[0]

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        """Return the normalized vectors of stored messages (waits while the process is paused)."""
        return self._ask(("passages", list(texts))) if texts else []

    def _ask(self, request: tuple[str, Any]) -> list[list[float]]:
        with self._lock:
            try:
                self._conn.send(request)
            except OSError as exc:
                raise SemanticUnavailableError(f"the embedder process is gone: {exc}") from exc
            vectors: list[list[float]] = self._answer()
            return vectors

    def pause(self) -> None:
        """Stop the child where it is and return once it has stopped (its work continues on ``resume``)."""
        if self._signal(signal.SIGSTOP, True):
            # The signal is delivered asynchronously; wait for the stop (or an exit) without reaping the child.
            os.waitid(os.P_PID, self._process.pid, os.WSTOPPED | os.WEXITED | os.WNOWAIT)

    def resume(self) -> None:
        self._signal(signal.SIGCONT, False)

    def _signal(self, which: signal.Signals, paused: bool) -> bool:
        """Send ``which`` unless the child is already in that state or gone; return whether it was sent."""
        if not (_PAUSABLE and self._process.poll() is None and self._paused != paused):
            return False
        os.kill(self._process.pid, which)
        self._paused = paused
        return True

    def close(self) -> None:
        """End the child (continued first if paused, so it can exit; killed if it does not)."""
        self.resume()
        self._conn.close()  # the child's recv ends: it exits
        try:
            self._process.wait(_CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


def _die_with_parent(parent: int) -> None:
    if not _PAUSABLE:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request: nobody would stop or continue us
        os._exit(0)


def main(argv: list[str]) -> int:
    conn = Connection(int(argv[0]))
    _die_with_parent(os.getppid())
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 19)  # and ingest goes first between calls
    except OSError:
        pass
    try:
        model = load_embedder(int(argv[1]))
    except SemanticUnavailableError as exc:
        conn.send(str(exc))
        return 1
    conn.send([])
    while True:
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError):
            return 0
        try:
            conn.send([model.query(payload)] if kind == "query" else model.passages(payload))
        except Exception as exc:  # the parent raises it as SemanticUnavailableError
            conn.send(f"the embedder failed: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    from moraine.private_files import restrict_process

    restrict_process()  # umask 077: anything the embedder creates (model caches under our home) is user-only
    sys.exit(main(sys.argv[1:]))
