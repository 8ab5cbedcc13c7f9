"""How Moraine starts Python children (ingest workers, the embedder process, the daemon a relay spawns).

``python -m module`` puts its current folder first on the module path: started inside a cloned repository, a child
would import that repository's ``pickle.py`` (or ``json.py``, ...) before the standard library's. So every child

- runs with ``-P`` (Python 3.11+: nothing is prepended to ``sys.path``, not even the current folder), and with
  ``PYTHONSAFEPATH=1`` in its environment, so a Python it starts in turn does the same;
- runs in a folder of ours (``child_cwd``: the Moraine home, or the file system's root before the home exists),
  never in the folder the command was typed in;
- imports what its parent imports: ``PYTHONPATH`` is the parent's ``sys.path`` (a test's adapter, a source
  checkout), each entry absolute (``''``, the parent's current folder, as that folder's path), so it names the same
  folders in the child's own working folder.

``-I`` would also drop ``PYTHONPATH`` and the user's site-packages, which the children need (a test's adapter is
found through the parent's path; ``pip install --user`` puts Moraine there). The parent's own path is trusted as the
parent trusts it: the ``moraine`` command has no current folder on it, so its children have none either; a
``python -m``/``-c`` process started in a folder has that folder on its path and imports from it itself, and its
children do too (docs/security.md, "What is still not protected").
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from moraine.config import moraine_home

__all__ = ["child_command", "child_cwd", "child_env"]


def child_command(module: str, *args: str) -> list[str]:
    """Return the command running ``python -m module args`` with no folder put first on its module path."""
    return [sys.executable, "-P", "-m", module, *args]


def child_env() -> dict[str, str]:
    """Return this process's environment with its module search path (absolute), so the child imports the same
    modules (a test's adapter, a source checkout) from its own working folder."""
    env = dict(os.environ)
    try:
        here = os.getcwd()
    except OSError:  # the current folder was removed: nothing is imported from it
        here = ""
    entries = [
        os.path.normpath(os.path.join(here, entry)) for entry in sys.path if here or os.path.isabs(entry)
    ]
    env["PYTHONPATH"] = os.pathsep.join(entry for entry in entries if os.path.isdir(entry))
    env["PYTHONSAFEPATH"] = "1"
    return env


def child_cwd() -> Path:
    """Return the working folder of a child: the Moraine home when it exists, else the file system's root."""
    home = moraine_home().absolute()
    return home if home.is_dir() else Path(home.anchor or os.sep)
