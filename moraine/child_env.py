"""The environment for a ``python -m moraine...`` child process (ingest workers, the embedder process)."""

from __future__ import annotations

import os
import sys

__all__ = ["child_env"]


def child_env() -> dict[str, str]:
    """Return this process's environment with its module search path, so the child imports the same modules (a
    test's adapter, a source checkout), whatever the working directory."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
    return env
