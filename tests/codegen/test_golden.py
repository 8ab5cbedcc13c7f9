"""Golden cases: codegen on small specs gives exactly the committed output; invalid specs give their diagnostics.

Refresh after an intended change (then review the diff like code):
    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/codegen/test_golden.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codegen import SpecError, check_tree, load, plan, render, write_tree

CASES = Path(__file__).resolve().parent / "cases"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
HOW_TO_UPDATE = "UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/codegen/test_golden.py"


def _generate(case: str) -> dict[str, str]:
    return render(plan(load(CASES / case / "spec")))


def test_minimal_case_generates_the_golden_tree(tmp_path: Path) -> None:
    files = _generate("minimal")
    expected = CASES / "minimal" / "expected"
    if UPDATE:
        write_tree(files, expected)
    write_tree(files, tmp_path)
    diff = check_tree(files, expected)
    assert diff == "", f"generated output differs from {expected}:\n{diff}\nrefresh with: {HOW_TO_UPDATE}"
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == sorted(
        files
    )


def test_minimal_case_output_imports_and_validates(tmp_path: Path) -> None:
    write_tree(_generate("minimal"), tmp_path / "generated")
    script = textwrap.dedent(
        """
        import generated.models as m
        from generated.descriptors import DESCRIPTORS
        from generated.tools import TOOLS
        from generated.validators import VALIDATORS, JsonSchemaValueException
        assert list(DESCRIPTORS) == ["echo_text"] and TOOLS["echo_text"].data_model is m.EchoTextData
        data = m.EchoTextData.model_validate({"kind": "short", "id": "thing:1", "text": "hi", "length": 2})
        assert data.model_dump(mode="json") == {"kind": "short", "id": "thing:1", "text": "hi", "length": 2}
        VALIDATORS["echo_text_arguments"]({"text": "hi"})
        for bad in ({"text": " "}, {"text": "hi", "extra": 1}, {"text": "hi", "color": "blue"}):
            try:
                VALIDATORS["echo_text_arguments"](bad)
            except JsonSchemaValueException:
                pass
            else:
                raise SystemExit(f"accepted {bad}")
        print("ok", m.__file__)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok") and str(tmp_path) in result.stdout


def test_broken_case_reports_every_diagnostic() -> None:
    with pytest.raises(SpecError) as caught:
        _generate("broken_refs")
    text = "\n".join(str(d) for d in caught.value.diagnostics) + "\n"
    expected = CASES / "broken_refs" / "expected" / "diagnostics.txt"
    if UPDATE:
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8"), f"refresh with: {HOW_TO_UPDATE}"
    assert len(caught.value.diagnostics) >= 4
