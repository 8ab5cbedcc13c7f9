"""A harness folder imports the shared helpers and the declarations; of another harness it may import only the
adapter, when it writes that harness's format (a fork: iFlow, Qoder and OpenClaude write Claude Code's, Kilo and
MiMoCode OpenCode's, Trae CLI Codex's). Readers, clients and helpers shared by several harnesses live in
``harnesses/_shared``."""

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


def test_a_harness_imports_of_another_harness_only_the_adapter_of_the_format_it_writes() -> None:
    others = {folder.name for folder in HARNESS_FOLDERS}
    crossings = []
    for folder in HARNESS_FOLDERS:
        for path in folder.rglob("*.py"):
            for module in _imported(path):
                parts = module.split(".")
                if parts[:2] == ["moraine", "harnesses"] and len(parts) > 2:
                    if parts[2] in others and parts[2] != folder.name and parts[3:] != ["adapter"]:
                        crossings.append(f"{path.relative_to(ROOT)} imports {module}")
    assert crossings == []
