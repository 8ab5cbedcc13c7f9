"""docs/harnesses.md is what ``python -m tools.harnesses docs`` makes from the registry and the template."""

from __future__ import annotations

from moraine.harnesses import harnesses
from tools.harnesses.__main__ import main
from tools.harnesses.docs import DOCS, render_docs


def test_docs_harnesses_md_is_up_to_date() -> None:
    assert DOCS.read_text(encoding="utf-8") == render_docs(), "stale: run python -m tools.harnesses docs"
    assert main(["docs", "--check"]) == 0


def test_every_registered_harness_has_its_section_with_its_locations() -> None:
    text = render_docs()
    for declared in harnesses().values():
        assert f"### {declared.display_name} (`{declared.name}`)" in text
        for location in declared.locations:
            assert f"- Source `{location.source}`" in text
    assert "## Adding a harness" in text
