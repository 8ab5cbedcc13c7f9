"""Describe the machine a benchmark ran on (the figures mean nothing without it)."""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = ["describe_machine"]


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gb() -> float:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    return 0.0


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "absent"


def describe_machine() -> dict[str, Any]:
    """Return cores, CPU model, memory, load average and the versions that matter."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "nproc": os.cpu_count() or 0,
        "cpu": _cpu_model(),
        "memory_gb": round(_memory_gb(), 1),
        "load_average_at_start": [round(x, 2) for x in load],
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "chdb": _version("chdb"),
        "clickhouse_connect": _version("clickhouse-connect"),
    }
