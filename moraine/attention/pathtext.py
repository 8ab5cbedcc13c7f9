"""Decide whether a piece of text names a local file, and clean it up (URLs, globs, variables, prose are not files)."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote

__all__ = ["clean_path", "looks_like_file"]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_GLOB_CHARS = frozenset("*?")
_BRACE_LIST = re.compile(r"\{[^{}]*,[^{}]*\}")
_EXTENSION = re.compile(r"^[^/]*[A-Za-z_][^/]*\.[A-Za-z][A-Za-z0-9_+-]{0,11}$")
_DOTFILE = re.compile(r"^\.[A-Za-z0-9][A-Za-z0-9_.+-]*$")
_DOMAIN = re.compile(r"^[\w-]+(\.[\w-]+)*\.(com|org|net|io|dev|edu|gov)$", re.I)
_BARE_FILES = frozenset(
    {
        "Makefile",
        "makefile",
        "GNUmakefile",
        "Dockerfile",
        "Containerfile",
        "Justfile",
        "justfile",
        "Gemfile",
        "Rakefile",
        "Procfile",
        "Vagrantfile",
        "LICENSE",
        "README",
        "CHANGELOG",
        "NOTICE",
        "AUTHORS",
    }
)
_PSEUDO_FS = ("/dev/", "/proc/", "/sys/")


def clean_path(text: str) -> str | None:
    """Return ``text`` as a local file path, or None when it is empty, a URL, a glob, a variable or a directory."""
    value = text.strip()
    if not value or len(value) > 4096 or "\n" in value or "\r" in value or "\0" in value:
        return None
    if value.lower().startswith("file://"):
        value = unquote(value[len("file://") :])
        if not value.startswith("/"):
            return None
    elif _SCHEME.match(value) and not re.match(r"^[A-Za-z]:[\\/]", value):
        return None  # https://..., mailto:, git@host:..., data:...
    if value.startswith(("www.", "git@")):
        return None
    if _GLOB_CHARS & set(value) or _BRACE_LIST.search(value) or "$" in value or "`" in value:
        return None
    if value.endswith(("/", "/.", "/..")) or value in (".", "..", "~"):
        return None
    if value.startswith("~"):
        if not value.startswith("~/"):
            return None
        value = os.path.expanduser("~") + value[1:]
    if value.startswith(_PSEUDO_FS) or value == "/dev/null":
        return None
    first = value.split("/", 1)[0]
    if "/" in value and _DOMAIN.match(first):
        return None  # example.com/src/app.py: a URL without its scheme
    return value


def looks_like_file(token: str) -> bool:
    """Return True when a (cleaned) shell word reads as a file name rather than a command word, ref or number."""
    if any(ch.isspace() for ch in token) or any(ch in token for ch in "=,;|&<>()'\"\\"):
        return False
    last = token.rsplit("/", 1)[-1]
    if not last:
        return False
    if token.startswith(("/", "./", "../")) and len(token) > 2:
        return True
    if "/" not in token and _DOMAIN.match(token):
        return False
    return bool(_EXTENSION.match(last) or _DOTFILE.match(last) or last in _BARE_FILES)
