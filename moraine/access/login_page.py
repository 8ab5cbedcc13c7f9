"""The page ``moraine web`` opens: a user-only file that forwards the browser to its one-time login link.

A browser started with the link as an argument shows it to every local account (``ps`` lists command lines), and
one of them redeemed it first. The page lives in the 0700 run directory, written 0600 in one step, and is opened
as a ``file://`` URL: only the user (and the browser the user runs) can read the ticket in it. Each run replaces
the page; a ticket in an old page is spent or expired after a minute anyway.
"""

from __future__ import annotations

import html
import os
import tempfile
from pathlib import Path

__all__ = ["LOGIN_PAGE_NAME", "write_login_page"]

LOGIN_PAGE_NAME = "web-login.html"


def _page(link: str) -> str:
    target = html.escape(link, quote=True)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="referrer" content="no-referrer">'
        f'<meta http-equiv="refresh" content="0;url={target}"><title>Moraine login</title></head>'
        f'<body><p><a href="{target}">Open Moraine</a> (this link works once, within a minute).</p></body></html>\n'
    )


def write_login_page(run_dir: Path, link: str) -> Path:
    """Write the page forwarding to ``link`` into ``run_dir`` (user-only), replacing any earlier one; return it.

    Raises:
        OSError: the page cannot be written.
    """
    run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(run_dir, 0o700)
    fd, tmp = tempfile.mkstemp(prefix=".web-login-", suffix=".html", dir=run_dir)  # created 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(_page(link))
        target = run_dir / LOGIN_PAGE_NAME
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
