"""Count the strings of trace files that redaction changes, by the kind that changed them, and time it.

Every string value of every JSON record (a line of a ``.jsonl`` file, or a whole ``.json`` file) is redacted as
ingest would redact a stored string. On a corpus that holds no secret (the generated benchmark corpus, LoCoMo's
conversations), every changed string is a false positive.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moraine.redact import redact_text

__all__ = ["Measure", "measure", "strings_of"]

_KIND = re.compile(r"\[REDACTED:([^\]]+)\]")


@dataclass(slots=True)
class Measure:
    files: int = 0
    strings: int = 0
    characters: int = 0
    redacted: int = 0  # strings redaction changed
    seconds: float = 0.0  # spent in redact_text
    kinds: Counter[str] = field(default_factory=Counter)  # changed strings by the first kind in them
    samples: list[tuple[str, str]] = field(default_factory=list)  # (before, after), the first few


def strings_of(value: Any) -> Iterator[str]:
    """Yield every string in a JSON value (keys aside)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_of(item)


def _records(path: Path) -> Iterator[Any]:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".json":
        yield json.loads(text)
        return
    for line in text.splitlines():
        try:
            yield json.loads(line)
        except ValueError:
            continue  # ingest records a bad line as an error; it is no string of ours


def measure(roots: list[Path], samples: int = 20) -> Measure:
    """Redact every string of every ``.json``/``.jsonl`` file under ``roots``."""
    result = Measure()
    redact_text("warm up: load the ruleset outside the timing")
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*.json*"))
        for path in files:
            if path.suffix not in (".json", ".jsonl") or path.name == "manifest.json":
                continue
            result.files += 1
            for record in _records(path):
                for text in strings_of(record):
                    started = time.perf_counter()
                    out = redact_text(text)
                    result.seconds += time.perf_counter() - started
                    result.strings += 1
                    result.characters += len(text)
                    if out != text:
                        result.redacted += 1
                        kind = _KIND.search(out)
                        result.kinds[kind.group(1) if kind else "?"] += 1
                        if len(result.samples) < samples:
                            result.samples.append((text, out))
    return result
