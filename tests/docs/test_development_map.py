"""docs/development.md's map of the tree names every package under moraine/, and nothing that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _map_block() -> str:
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    return block


def _runtime_entry(block: str) -> str:
    """The ``moraine/`` entry of the map: its lines up to the next top-level folder."""
    lines = block.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("moraine/"))
    entry = [lines[start]]
    for line in lines[start + 1 :]:
        if line and not line.startswith(" "):
            break
        entry.append(line)
    return "\n".join(entry)


def test_every_top_level_folder_in_the_map_exists() -> None:
    named = re.findall(r"^(\w[\w-]*)/", _map_block(), flags=re.M)
    assert named and [name for name in named if not (ROOT / name).is_dir()] == []


def test_the_map_names_every_package_of_the_runtime_and_only_those() -> None:
    entry = _runtime_entry(_map_block())
    named = set(re.findall(r"(?<![\w/.])(\w+)/(?=[\s,;)(])", entry)) - {"moraine"}
    packages = {
        path.name
        for path in (ROOT / "moraine").iterdir()
        if path.is_dir() and (path / "__init__.py").exists()
    }
    assert named - packages == set(), "the map names folders that do not exist"
    assert packages - named == set(), "packages missing from the map"
