"""The redaction measuring command counts every string of the trace files and the ones redaction changed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tools.redaction.__main__ import main
from tools.redaction.measure import measure


def _corpus(root: Path) -> Path:
    records = [
        {"type": "user", "message": {"content": "Das Passwort lautet: Sonne2024!"}, "cwd": "/home/dev/app"},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "the password is required"}]}},
        {"type": "note", "tags": ["plain", "words only"], "n": 3},
    ]
    (root / "a.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records) + "{broken\n", encoding="utf-8"
    )
    (root / "b.json").write_text(json.dumps({"text": "sshpass -p Hunter22 ssh host"}), encoding="utf-8")
    (root / "manifest.json").write_text(json.dumps({"text": "password: skipped-manifest"}), encoding="utf-8")
    return root


def test_every_string_is_counted_and_the_redacted_ones_by_kind(tmp_path: Path) -> None:
    result = measure([_corpus(tmp_path)], samples=5)
    assert result.files == 2  # the manifest is not a trace
    assert result.strings == 10  # keys aside; the broken line holds none
    assert result.redacted == 2
    assert result.kinds == {"password": 2}
    assert [before for before, _ in result.samples] == [
        "Das Passwort lautet: Sonne2024!",
        "sshpass -p Hunter22 ssh host",
    ]


def test_the_command_prints_the_count_and_the_changed_strings(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, [str(_corpus(tmp_path)), "--samples", "1"])
    assert out.exit_code == 0, out.output
    assert "10 strings" in out.output and "2 redacted" in out.output
    assert "[REDACTED:password]" in out.output
