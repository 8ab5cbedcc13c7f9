"""Write rendered files into ``generated/``, or compare them with it and describe the drift as a unified diff."""

from __future__ import annotations

import difflib
from pathlib import Path

__all__ = ["check_tree", "write_tree"]

_IGNORED_DIRS = {"__pycache__"}


def _existing(out_dir: Path) -> dict[str, Path]:
    if not out_dir.is_dir():
        return {}
    return {
        p.relative_to(out_dir).as_posix(): p
        for p in sorted(out_dir.rglob("*"))
        if p.is_file() and not _IGNORED_DIRS & set(p.relative_to(out_dir).parts)
    }


def write_tree(files: dict[str, str], out_dir: Path) -> list[str]:
    """Make ``out_dir`` hold exactly ``files``; return the paths written or removed."""
    changed = []
    for rel, path in _existing(out_dir).items():
        if rel not in files:
            path.unlink()
            changed.append(rel)
    for rel, text in files.items():
        target = out_dir / rel
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        changed.append(rel)
    return sorted(changed)


def check_tree(files: dict[str, str], out_dir: Path) -> str:
    """Return a unified diff from ``out_dir`` to ``files`` (empty when they match)."""
    existing = _existing(out_dir)
    chunks: list[str] = []
    for rel in sorted(set(existing) | set(files)):
        old = existing[rel].read_text(encoding="utf-8") if rel in existing else ""
        new = files.get(rel, "")
        if old == new and rel in existing and rel in files:
            continue
        chunks.extend(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"generated/{rel}" if rel in existing else "/dev/null",
                tofile=f"generated/{rel}" if rel in files else "/dev/null",
            )
        )
    return "".join(chunks)
