"""``moraine hook EVENT``: the process an agent's hook runs. Never hurts the agent.

It imports the standard library only (``moraine.entry`` calls it before click loads), reads the hook's JSON from
stdin, asks the daemon's ``/v1/daemon/hook`` route on its Unix socket (the run directory is user-only: no secret
needed there) and prints the answer in the agent's hook protocol: ``json`` is ``{"hookSpecificOutput":
{"hookEventName", "additionalContext"}}`` (Claude Code, Gemini CLI), ``text`` is the context as plain stdout and
a JSON object is that object with the context in place of its one ``null`` (Cursor's ``{"additional_context":
null}``, Cline's ``{"cancel":false,"contextModification":null}``: each harness's ``hook_client`` declares its own).

- A hard deadline (``[hooks] deadline_ms``, default 1000, counted from this module's start): a timer thread ends
  the process with status 0 when it passes, and output is written in one step under the same lock, so nothing is
  ever printed past it.
- No daemon: nothing is printed; ``python -m moraine.hooks`` is started in the background to bring the daemon up
  for the next hook (``moraine.daemon.launcher``: the same spawn lock as every other client).
- The exit status is always 0; a failure is one line on stderr, which the agents' protocols ignore at status 0.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_DEADLINE_MS", "EVENTS", "HOOK_PATH", "format_error", "main"]

_STARTED = time.monotonic()
HOOK_PATH = "/v1/daemon/hook"  # the daemon's route (moraine.daemon.routes re-exports it)
EVENTS = ("session-start", "prompt", "compact")
DEFAULT_DEADLINE_MS = 1000
_MAX_INPUT = 1 << 20  # a hook's stdin past 1 MiB is cut there (the prompt is trimmed again by the daemon)
_MAX_DEADLINE_MS = 60_000
_USAGE = (
    "usage: moraine hook {session-start|prompt|compact} [--harness NAME] [--format json|text|OBJECT]"
    " [--project-only]"
)


class _Refused(Exception):
    """The command line or the hook's input cannot be used; the message says why (written to stderr)."""


class _Absent(Exception):
    """No daemon is running: start one for next time."""


class _Deadline:
    """The hard deadline: at ``seconds`` the process exits with status 0 unless the output is being written."""

    def __init__(self, seconds: float) -> None:
        self.lock = threading.Lock()
        self.at = _STARTED + seconds
        self._timer = threading.Timer(max(0.0, self.at - time.monotonic()), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def _expire(self) -> None:
        with self.lock:
            os._exit(0)

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def write(self, data: bytes) -> None:
        """Write ``data`` to stdout in one step, or nothing when the deadline has passed."""
        with self.lock:
            self._timer.cancel()
            if self.remaining() <= 0:
                return
            view = memoryview(data)
            while view:
                view = view[os.write(1, view) :]


def _document(value: str) -> dict[str, Any] | None:
    """The JSON object ``value`` when it is one with exactly one ``null`` (where the context goes), else None."""
    if not value.startswith("{"):
        return None
    try:
        document = json.loads(value)
    except ValueError:
        return None
    if not isinstance(document, dict) or list(document.values()).count(None) != 1:
        return None
    return document


def format_error(value: str) -> str | None:
    """Why ``value`` is not an output format (None: it is one)."""
    if value in ("json", "text") or _document(value) is not None:
        return None
    return f"--format must be json, text or a JSON object with one null (the context's place), not {value!r}"


def _options(argv: list[str]) -> dict[str, Any]:
    if not argv or argv[0] not in EVENTS:
        raise _Refused(_USAGE)
    options: dict[str, Any] = {"event": argv[0], "harness": None, "format": "json", "project_only": False}
    rest = iter(argv[1:])
    for word in rest:
        name, _, inline = word.partition("=")
        if name == "--project-only" and not inline:
            options["project_only"] = True
        elif name in ("--harness", "--format"):
            value = inline or next(rest, "")
            if not value:
                raise _Refused(f"{name} needs a value; {_USAGE}")
            if name == "--format" and (problem := format_error(value)):
                raise _Refused(problem)
            options[name[2:]] = value
        else:
            raise _Refused(f"unknown option {word!r}; {_USAGE}")
    return options


def _home() -> Path:
    raw = os.environ.get("MORAINE_HOME")
    return Path(raw).expanduser() if raw else Path.home() / ".moraine"


def _deadline_ms(home: Path) -> int:
    """The ``[hooks] deadline_ms`` of the configuration, or the default when it is unset or unreadable."""
    path = Path(os.environ.get("MORAINE_CONFIG") or home / "config.toml")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return DEFAULT_DEADLINE_MS
    if "[hooks]" not in text:
        return DEFAULT_DEADLINE_MS  # skip parsing the file: most are without the table
    import tomllib

    try:
        value = tomllib.loads(text).get("hooks", {}).get("deadline_ms", DEFAULT_DEADLINE_MS)
    except (tomllib.TOMLDecodeError, AttributeError):
        return DEFAULT_DEADLINE_MS
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_DEADLINE_MS:
        return DEFAULT_DEADLINE_MS  # the daemon's reading of the table reports the mistake
    return value


def _hook_input(raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError) as exc:
        raise _Refused(f"the hook's input is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise _Refused("the hook's input is not a JSON object")
    return data


def _text(data: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _first_root(data: dict[str, Any]) -> str | None:
    """The first workspace root (Cursor's ``workspace_roots``, Cline's ``workspaceRoots``)."""
    for key in ("workspace_roots", "workspaceRoots"):
        roots = data.get(key)
        if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
            return roots[0]
    return None


def _cwd(data: dict[str, Any]) -> str:
    """The hook's working folder: ``cwd``, else the first workspace root, else this process's."""
    cwd = _text(data, "cwd") or _first_root(data) or os.getcwd()
    return cwd if os.path.isabs(cwd) else os.getcwd()


def _prompt(data: dict[str, Any]) -> str | None:
    """The prompt: Qwen Code's ``submitted_prompt`` (what the user typed; its ``prompt`` may be a tool result's
    continuation) first, Cline's ``userPromptSubmit.prompt``, else the others' ``prompt``."""
    nested = data.get("userPromptSubmit")
    return _text(data, "submitted_prompt", "prompt", "user_prompt", "userPrompt") or (
        _text(nested, "prompt") if isinstance(nested, dict) else None
    )


def _request(options: dict[str, Any], data: dict[str, Any], deadline: _Deadline) -> dict[str, Any]:
    return {
        "event": options["event"],
        "harness": options["harness"],
        "session": _text(data, "session_id", "sessionId", "conversation_id", "taskId"),
        "cwd": _cwd(data),
        "prompt": _prompt(data),
        "project_only": options["project_only"],
        "deadline_ms": max(1, int(deadline.remaining() * 1000)),
    }


def _socket_path(home: Path) -> str:
    """The socket of the daemon the state file names, when that process is alive."""
    try:
        state = json.loads((home / "run" / "daemon.json").read_text(encoding="utf-8"))
        pid, path, ready = int(state["pid"]), str(state["socket"]), bool(state["ready"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise _Absent() from exc
    if not ready:
        raise _Refused("the daemon is starting")
    try:
        os.kill(pid, 0)
    except ProcessLookupError as exc:
        raise _Absent() from exc
    except PermissionError:
        pass
    return path


def _ask(path: str, body: dict[str, Any], deadline: _Deadline) -> dict[str, Any]:
    """POST ``body`` to the hook route on the daemon's socket and return its JSON answer.

    One HTTP/1.1 request with ``Connection: close``, read to the end: written here because ``http.client`` costs
    about 30 ms of imports (``email``) on every hook, a fifth of the budget.
    """
    payload = json.dumps(body).encode()
    head = (
        f"POST {HOOK_PATH} HTTP/1.1\r\nHost: moraine.daemon\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
    )
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(max(0.001, deadline.remaining()))
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise _Absent() from exc
        sock.sendall(head.encode() + payload)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    raw = b"".join(chunks)
    header, _, content = raw.partition(b"\r\n\r\n")
    status = header.split(b" ", 2)[1] if header.count(b" ") >= 2 else b""
    if b"transfer-encoding: chunked" in header.lower():
        raise _Refused("the daemon answered in chunks")  # it never does: a JSONResponse has a length
    answer = json.loads(content) if content else None
    if status != b"200" or not isinstance(answer, dict):
        detail = answer.get("detail") if isinstance(answer, dict) else answer
        raise _Refused(f"the daemon refused the hook ({status.decode(errors='replace')}): {detail}")
    return answer


def _start_daemon() -> None:
    """Start ``python -m moraine.hooks`` detached: it brings the daemon up for the next hook. Started as every
    child is (``moraine.child_env``): no folder put first on its module path and the Moraine home as its working
    folder, never the agent's project, whose files must not be imported (imported here only: no hook's answer
    waits for it)."""
    import subprocess

    from moraine.child_env import child_command, child_cwd, child_env

    subprocess.Popen(
        child_command("moraine.hooks"),
        cwd=child_cwd(),
        env=child_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def render(text: str, output: str, event_name: str) -> bytes:
    """The agent's hook output carrying ``text`` as added context."""
    if output == "text":
        return (text + "\n").encode()
    if (template := _document(output)) is not None:
        filled = {key: text if value is None else value for key, value in template.items()}
        return (json.dumps(filled, ensure_ascii=False) + "\n").encode()
    document = {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}}
    return (json.dumps(document, ensure_ascii=False) + "\n").encode()


_DEFAULT_EVENT_NAMES = {
    "session-start": "SessionStart",
    "prompt": "UserPromptSubmit",
    "compact": "SessionStart",
}


def main(argv: list[str]) -> None:
    """Run one hook; always return normally (the caller exits 0)."""
    home = _home()
    deadline = _Deadline(_deadline_ms(home) / 1000)
    try:
        options = _options(argv)
        data = _hook_input(sys.stdin.buffer.read(_MAX_INPUT))
        body = _request(options, data, deadline)
        answer = _ask(_socket_path(home), body, deadline)
        text = answer.get("text")
        if isinstance(text, str) and text:
            event_name = (
                _text(data, "hook_event_name", "hookEventName") or _DEFAULT_EVENT_NAMES[options["event"]]
            )
            deadline.write(render(text, options["format"], event_name))
    except _Absent:
        try:
            _start_daemon()
        except OSError as exc:
            sys.stderr.write(f"moraine hook: could not start the daemon: {exc}\n")
    except _Refused as exc:
        sys.stderr.write(f"moraine hook: {exc}\n")
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"moraine hook: no answer from the daemon: {exc}\n")
