"""The maintained secret-detection ruleset, read from the ``kingfisher-secret-scanner`` package and compiled for ``re``.

The package ships the Betterleaks rules (the successor of the gitleaks set, several hundred provider token shapes)
with its Rust scanner; we take only their detection patterns, through its public ``Rules.detail`` API, so a package
upgrade brings new and corrected rules without a change here. Its scanner is not used: it is built for low false
positives in code review (entropy, stop-word and paired-rule filters drop an AWS key seen alone) and costs about
50 µs a call, while redaction wants every secret-shaped string gone and runs once per stored string.

Three translations make a Rust ``regex`` pattern a Python one: an inline ``(?i)`` after the start becomes a scoped
``(?i:...)`` up to the end of its group; ``\\z`` becomes ``\\Z``; and the trailing "followed by a quote, blank, ``;`` or
end" context most rules carry is dropped, so a token is found in a URL query or before a ``&`` too. A pattern that
still does not compile is skipped and counted (``Ruleset.skipped``).

The rules that matter are the secrets: visible rules, plus the hidden parts of paired rules that are themselves
secret (the AWS secret key, a client secret), never the identifiers those pairs also match (client IDs, host names).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moraine.redact.detector import Detector, compile_pattern
from moraine.redact.literals import common, max_width, required_literals

__all__ = ["Ruleset", "cache_file", "load_ruleset", "translate"]

_BOUNDARY_SUFFIX = r"""(?:\\?['"\x60]|[\s;]|\\[nr]|$)"""
_HIDDEN_SECRET = re.compile(r"secret|token|passphrase|password|private|key(?!-id)")
_SECRET_GROUPS = ("password", "secret", "token", "key")
_FORMAT = 5  # bump when the translation changes: older cache files are then ignored


@dataclass(frozen=True, slots=True)
class Ruleset:
    detectors: tuple[Detector, ...]
    source: str  # the package and version the rules came from
    skipped: tuple[str, ...]  # rule ids whose pattern Python's ``re`` cannot compile


def load_ruleset(cache_dir: Path | None = None) -> Ruleset:
    """Return the installed package's rules, compiled; from ``cache_dir`` when it holds this version's translation.

    Building the catalog compiles the package's own scanner (2 s, or 10 to 20 s the first time for a user), so the
    translated rules are kept in a user-only JSON file named for the package version.
    """
    import kingfisher_sdk  # noqa: PLC0415  (a 40 MB native module: loaded only when redaction first runs)

    source = f"kingfisher-secret-scanner {kingfisher_sdk.__version__}"
    cache = None if cache_dir is None else cache_file(cache_dir)
    rows = _read_cache(cache) if cache is not None else None
    if rows is None:
        rows = _translate_catalog(kingfisher_sdk.Rules(builtins=True, confidence="low"))
        if cache is not None:
            _write_cache(cache, rows)
    detectors = tuple(
        Detector(
            rule_id.rsplit("/", 1)[-1].removeprefix("betterleaks."),
            pattern,
            _SHARPER_TRIGGERS.get(pattern, None if triggers is None else tuple(triggers)),
            (group,),
            width,
        )
        for rule_id, pattern, group, triggers, width in rows
        if pattern
    )
    return Ruleset(detectors, source, tuple(rule_id for rule_id, pattern, *_ in rows if not pattern))


def caseless(word: str) -> str:
    """Return a Hyperscan expression (compiled caseless, not UTF-8) for ``word`` as Python's ``re.IGNORECASE``
    matches it: an ASCII letter with a non-ASCII case partner (i, k, s) also matches that partner's UTF-8 bytes."""
    out = []
    for char in word:
        partners = _CASE_PARTNERS.get(char.lower())
        if partners is None:
            out.append(re.escape(char))
        else:
            spelled = ["".join(f"\\x{byte:02x}" for byte in p.encode()) for p in partners]
            out.append(f"(?:{char}|{'|'.join(spelled)})")
    return "".join(out)


# The non-ASCII characters Python's re.IGNORECASE takes for an ASCII letter (checked against re in the tests).
_CASE_PARTNERS = {"i": ("\u0130", "\u0131"), "k": ("\u212a",), "s": ("\u017f",)}
# Rules whose derived triggers are everyday words, for the exact pattern we know (a changed rule falls back to its
# derived ones): the AWS session token rule's were "ssion" and "curity", and its width is unbounded, so every
# "session" in a text woke a search of 16 KB around it (a sixth of all redaction time on a 100k-record corpus).
# The trigger below lies inside every match of that pattern.
_SHARPER_TRIGGERS = {
    r"""(?x)\b(?i:AWS[_-]?(?:SESSION|SECURITY)[_-]?TOKEN)\b["']?\s*(?:=|:)\s*["']?([A-Za-z0-9/+=._-]{16,2048})"""
    r"""(?:["'\s,;}]|$)""": (
        f"{caseless('aws')}[_-]?(?:{caseless('session')}|{caseless('security')})[_-]?{caseless('token')}",
    ),
}


def cache_file(cache_dir: Path) -> Path:
    """Return the cache file for the installed package version and this translation."""
    import kingfisher_sdk  # noqa: PLC0415

    return cache_dir / f"ruleset-{kingfisher_sdk.__version__}-{_FORMAT}.json"


# rule id, translated pattern ("": it does not compile), secret group, triggers (None: none), greatest width
_Row = tuple[str, str, int | str, list[str] | None, int | None]


def _translate_catalog(catalog: Any) -> list[_Row]:
    rows: list[_Row] = []
    for meta in catalog.metadata():
        rule_id = str(meta["id"])
        if not meta["visible"] and not _HIDDEN_SECRET.search(rule_id.rsplit(".", 1)[-1]):
            continue
        detail = catalog.detail(rule_id)
        source = translate(str(detail["pattern"]))
        compiled = _compile(source)
        if compiled is None:
            rows.append((rule_id, "", 0, None, None))
            continue
        declared = detail.get("betterleaks_secret_group")
        literals = required_literals(compiled)
        rows.append(
            (
                rule_id,
                source,
                _secret_group(compiled, declared if isinstance(declared, int) else 0),
                None
                if literals is None or common(literals)
                else [re.escape(lit) for lit in sorted(literals)],
                max_width(compiled),
            )
        )
    return rows


def _read_cache(path: Path) -> list[_Row] | None:
    try:
        if path.stat().st_uid != os.getuid():  # only a file this user wrote may decide what is redacted
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, list) or not all(isinstance(row, list) and _valid(row) for row in data):
        return None
    return [(r[0], r[1], r[2], r[3], r[4]) for r in data]


def _valid(row: list[Any]) -> bool:
    return (
        len(row) == 5
        and isinstance(row[0], str)
        and isinstance(row[1], str)
        and isinstance(row[2], int | str)
        and (row[3] is None or (isinstance(row[3], list) and all(isinstance(t, str) for t in row[3])))
        and (row[4] is None or isinstance(row[4], int))
    )


def _write_cache(path: Path, rows: list[_Row]) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(rows, out)
        os.replace(temporary, path)
        for stale in path.parent.glob("ruleset-*.json"):  # other package versions' or translations'
            if stale != path:
                stale.unlink(missing_ok=True)
    except OSError:
        pass  # a cache that cannot be written only costs the next process the same load


def _compile(source: str) -> re.Pattern[str] | None:
    try:
        return compile_pattern(source)
    except re.error:
        return None


def translate(pattern: str) -> str:
    """Return a Rust ``regex`` pattern in Python's dialect (see the module docstring)."""
    if pattern.endswith(_BOUNDARY_SUFFIX):
        pattern = pattern[: -len(_BOUNDARY_SUFFIX)]
    pattern = pattern.replace(r"\z", r"\Z")
    return _scope_inline_flags(pattern)


def _scope_inline_flags(pattern: str) -> str:
    """Turn each ``(?flags)`` after the start into ``(?flags:...)`` ending where its enclosing group ends."""
    out: list[str] = []
    scoped: list[list[str]] = [[]]  # per open group: the flags opened inside it, to close when it ends
    index = 0
    in_class = False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]" or out[-1] == "["
        elif char == "[":
            in_class = True
        elif char == "(":
            flags = re.match(r"\(\?([a-zA-Z]+)\)", pattern[index:])
            if flags and index > 0:
                out.append(f"(?{flags.group(1)}:")
                scoped[-1].append(flags.group(1))
                index += len(flags.group(0))
                continue
            scoped.append([])
        elif char == ")" and len(scoped) > 1:
            out.append(")" * len(scoped.pop()))
        elif char == "|" and scoped[-1]:  # the flags hold in the group's next alternative too
            out.append(")" * len(scoped[-1]) + "|" + "".join(f"(?{f}:" for f in scoped[-1]))
            index += 1
            continue
        out.append(char)
        index += 1
    out.append(")" * len(scoped[0]))
    return "".join(out)


def _secret_group(pattern: re.Pattern[str], declared: int) -> int | str:
    for name in _SECRET_GROUPS:
        if name in pattern.groupindex:
            return name
    if 0 < declared <= pattern.groups:
        return declared
    return 1 if pattern.groups else 0
