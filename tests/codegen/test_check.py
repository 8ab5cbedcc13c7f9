"""``python -m codegen --check``: clean on the repository, exit 1 with a diff on drift, exit 2 on a spec error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _codegen(*args: str, seed: str = "0") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": seed},
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_passes_on_the_committed_generated_tree_under_two_hash_seeds() -> None:
    for seed in ("1", "2"):
        result = _codegen("--check", seed=seed)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout == ""


def test_changing_a_schema_without_regenerating_fails_check_with_a_diff(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", spec)
    schema_file = spec / "search_sessions" / "arguments.schema.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    schema["properties"]["n_hits"]["maximum"] = 40
    schema_file.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    result = _codegen("--check", "--spec", str(spec), "--out", str(ROOT / "generated"))
    assert result.returncode == 1
    assert "+++ generated/validators/search_sessions_arguments.py" in result.stdout
    assert "40" in result.stdout
    assert "out of date" in result.stderr


def test_regenerating_into_a_copy_then_checking_is_clean(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    shutil.copytree(ROOT / "generated", out, ignore=shutil.ignore_patterns("__pycache__"))
    (out / "stale.py").write_text("# left behind\n", encoding="utf-8")
    assert _codegen("--check", "--out", str(out)).returncode == 1
    assert _codegen("--out", str(out)).returncode == 0
    assert not (out / "stale.py").exists()
    assert _codegen("--check", "--out", str(out)).returncode == 0


def test_broken_spec_exits_2_with_located_diagnostics(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", spec)
    response = spec / "open" / "response.schema.json"
    response.write_text(
        response.read_text(encoding="utf-8").replace("#/$defs/EventTraversal", "#/$defs/Nope")
    )
    result = _codegen("--check", "--spec", str(spec))
    assert result.returncode == 2
    assert "open/response.schema.json#/$defs/OpenEventData/properties/traversal" in result.stderr
