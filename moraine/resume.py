"""The shell command that resumes a session in its own harness, where the harness's command line has one.

Claude Code (``claude --resume <id>``) looks a session up under the directory it is started in, and Kimi CLI
(``kimi --session <id>``) keeps sessions per working directory, so their commands start with ``cd <cwd> &&`` when
the session's directory is known; the others (``codex resume <id>``, ``qwen --resume <id>``,
``opencode --session <id>``) get it too, so the resumed agent works where it worked before. A sub-agent's session
(its ID is ``<parent>:<agent>``) is resumed through its parent, so it has none; nor do harnesses whose command line
resumes by file path or only through a picker (Pi, Kiro, Cursor, Hermes, NAC, Prime Agent).
"""

from __future__ import annotations

import shlex

from moraine.harnesses.registry import harness as registered

__all__ = ["RESUME_ARGUMENTS", "resume_command"]

# harness -> the command-line words before the session ID
RESUME_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "claude-code": ("claude", "--resume"),
    "codex": ("codex", "resume"),
    "kimi-cli": ("kimi", "--session"),
    "qwen-code": ("qwen", "--resume"),
    "opencode": ("opencode", "--session"),
}


def resume_command(harness: str, native_id: str | None, cwd: str | None = None) -> str | None:
    """Return the command that resumes the session ``native_id`` of ``harness`` (shell-quoted), or None."""
    words = RESUME_ARGUMENTS.get(harness)
    declared = registered(harness)
    if words is None and declared is not None and declared.resume is not None:
        words = declared.resume.words
    if words is None or not native_id or not native_id.strip() or ":" in native_id:
        return None
    command = shlex.join([*words, native_id.strip()])
    return f"cd {shlex.quote(cwd)} && {command}" if cwd and cwd.strip() else command
