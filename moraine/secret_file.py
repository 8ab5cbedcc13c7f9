"""A secret kept in a user-only file, created in one step and replaced when it is missing, empty or unusable.

Both of the daemon's secrets (the cursor-signing key and the HTTP secret) live this way. A file left empty or short
by a crash or a full disk while it was written must never become the key (an empty HMAC key lets anyone forge
cursors). A new secret is written to a 0600 temporary file beside the target first and then linked into place, so no
reader ever sees half of it; when two processes create it at once, the first link wins and both use that one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = ["ensure_secret_file"]

T = TypeVar("T")


def ensure_secret_file(path: Path, read: Callable[[Path], T | None], fresh: Callable[[], str]) -> T:
    """Return the secret ``read`` finds in ``path``, first writing ``fresh()`` there when it finds none.

    ``read`` returns None for a missing or unusable file. An existing file is made 0600 (an install from before the
    rule, or a file copied in with looser bits).

    Raises:
        OSError: the file cannot be written, or what was written cannot be read back as a secret.
    """
    found = read(path)
    if found is not None:
        os.chmod(path, 0o600)
        return found
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)  # mkstemp creates it 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(fresh())
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            if read(path) is None:
                os.replace(tmp, path)  # the file there is unusable: ours replaces it
            # else another process created a usable one first: use theirs
    finally:
        Path(tmp).unlink(missing_ok=True)
    created = read(path)
    if created is None:
        raise OSError(f"{path} could not be written with a usable secret")
    return created
