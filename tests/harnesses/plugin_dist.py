"""A harness package as pip installs it, for the tests of harness plugins: the package and its ``.dist-info``."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

__all__ = ["write_distribution"]


def write_distribution(site: Path, package: str, harness: str, init: str, adapter: str) -> Path:
    """Write ``package`` (``__init__.py`` declaring ``HARNESS``, ``adapter.py``) and its ``.dist-info``, whose entry
    point registers ``harness`` in the ``moraine.harnesses`` group, under ``site``; return ``site``."""
    folder = site / package
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(dedent(init))
    (folder / "adapter.py").write_text(dedent(adapter))
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    name = package.replace("_", "-")
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[moraine.harnesses]\n{harness} = {package}:HARNESS\n")
    return site
