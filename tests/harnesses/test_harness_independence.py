"""A harness folder imports the harness contract and the shared helpers, never another harness's folder. A format
several agents write (Claude Code's, which iFlow, Qoder and OpenClaude fork; OpenCode's, which Kilo, MiMoCode and
iCodeMate fork; Codex's, which Trae CLI forks; OpenClaw's, which QClaw forks) is read by a family in
``harnesses/_shared`` (``claude_format``, ``opencode_format``, ``codex_format``, ``openclaw_format``), and each
harness's own adapter (its harness value) lives in its own folder. Every adapter and reader a harness declares by
``"module:Class"`` names a class that loads."""

from __future__ import annotations

import ast
from pathlib import Path

import moraine.harnesses

ROOT = Path(moraine.harnesses.__file__).parent
HARNESS_FOLDERS = sorted(
    p for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists() and p.name != "_shared"
)


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_there_are_harness_folders_to_check() -> None:
    assert len(HARNESS_FOLDERS) >= 50


def test_a_harness_imports_nothing_of_another_harness() -> None:
    others = {folder.name for folder in HARNESS_FOLDERS}
    crossings = []
    for folder in HARNESS_FOLDERS:
        for path in folder.rglob("*.py"):
            for module in _imported(path):
                parts = module.split(".")
                if parts[:2] == ["moraine", "harnesses"] and len(parts) > 2:
                    if parts[2] in others and parts[2] != folder.name:
                        crossings.append(f"{path.relative_to(ROOT)} imports {module}")
    assert crossings == []


def test_every_declared_adapter_and_reader_names_a_class_that_loads() -> None:
    from moraine.harnesses.registry import harnesses
    from moraine.ingest.adapters import _load

    declared = [(h.name, h.adapter) for h in harnesses().values()]
    declared += [(h.name, target) for h in harnesses().values() for target in h.readers.values()]
    assert len(declared) > 50
    assert [(name, target) for name, target in declared if _load(target) is None] == []
