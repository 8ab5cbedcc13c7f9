"""Hook scripts for an agent that runs one executable per event (Cline): written, shown and removed here.

Each script is ``#!/bin/sh`` then ``exec <moraine hook command>``, named after the agent's event in the hooks
folder, user-only and executable (0700). A file of that name that is not Moraine's (its text does not run
``moraine hook <event>``) is never touched: the agent runs one file per event, so merging is the user's call.
Writing twice changes nothing; a changed install replaces Moraine's older script, keeping it as a backup; removing
moves Moraine's scripts aside as user-only, non-executable backups.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

from moraine.daemon.mcp_clients import SetupError, replace_file

__all__ = ["remove_scripts", "runs_moraine_hook", "script_text", "scripts_text", "write_scripts"]

_OURS = re.compile(r"(^|[\s/'\"])moraine['\"]? hook (session-start|prompt|compact)(\s|$)")
_HEADER = (
    "#!/bin/sh\n# Moraine's hook (`moraine setup --hooks`); `moraine setup --hooks --remove` takes it out.\n"
)


def runs_moraine_hook(text: str) -> bool:
    """Whether ``text`` (a hook's command, or a script) runs ``moraine hook <event>``: Moraine's own hook."""
    return bool(_OURS.search(text))


def script_text(command: str) -> str:
    """The script that runs ``command`` (a shell command line) with the hook's stdin."""
    return f"{_HEADER}exec {command}\n"


def scripts_text(folder: Path, scripts: dict[str, str]) -> str:
    """The scripts as shown before writing: each file's path, then its text."""
    return "".join(f"# {folder / name}\n{text}\n" for name, text in scripts.items())


def _existing(path: Path) -> str | None:
    if not path.exists():
        return None
    if not path.is_file():
        raise SetupError(f"{path} is not a file; not changing it")
    return path.read_text(encoding="utf-8", errors="replace")


def write_scripts(folder: Path, scripts: dict[str, str]) -> Path | None:
    """Write each script into ``folder`` (0700); return the backup of a replaced older Moraine script, if any.

    Raises:
        SetupError: a file of a script's name is not Moraine's.
    """
    foreign = [
        folder / n for n in scripts if (t := _existing(folder / n)) is not None and not runs_moraine_hook(t)
    ]
    if foreign:
        names = ", ".join(str(p) for p in foreign)
        raise SetupError(
            f"{names}: another hook already runs there; not changing it (add `moraine hook` to it by hand)"
        )
    backup = None
    for name, text in scripts.items():
        path = folder / name
        existing = _existing(path)
        if existing == text and os.stat(path).st_mode & 0o777 == 0o700:
            continue
        backup = replace_file(path, existing, text, private=True) or backup
        os.chmod(path, 0o700)
    return backup


def remove_scripts(folder: Path, scripts: dict[str, str]) -> Path | None:
    """Move Moraine's scripts in ``folder`` aside (user-only, not executable); return the last backup (None: none).

    Raises:
        SetupError: a path of a script's name is not a file.
    """
    backup = None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    for name in scripts:
        path = folder / name
        existing = _existing(path)
        if existing is None or not runs_moraine_hook(existing):
            continue
        backup = path.with_name(f"{name}.bak-{stamp}")
        os.replace(path, backup)
        os.chmod(backup, 0o600)
    return backup
