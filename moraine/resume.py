"""The shell command that resumes a session in its own harness, where the harness declares one (``Harness.resume``).

The command is the declared words then the native session ID. Claude Code looks a session up under the directory it
is started in, and Kimi CLI keeps sessions per working directory, so a command starts with ``cd <cwd> &&`` when the
session's directory is known (unless the harness declares ``in_cwd=False``): the resumed agent works where it
worked before. A sub-agent's session
(its ID is ``<parent>:<agent>``) is resumed through its parent, so it has none; nor do harnesses whose command line
resumes by file path or only through a picker declare none.
"""

from __future__ import annotations

import shlex

from moraine.harnesses.registry import harness as registered

__all__ = ["resume_command"]


def resume_command(harness: str, native_id: str | None, cwd: str | None = None) -> str | None:
    """Return the command that resumes the session ``native_id`` of ``harness`` (shell-quoted), or None."""
    declared = registered(harness)
    resume = declared.resume if declared is not None else None
    if resume is None or not native_id or not native_id.strip() or ":" in native_id:
        return None
    command = shlex.join([*resume.words, native_id.strip()])
    if resume.in_cwd and cwd and cwd.strip():
        return f"cd {shlex.quote(cwd)} && {command}"
    return command
