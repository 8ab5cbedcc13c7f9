"""The fast tier's lists of slow files and tests stay true to the tree (``tests/tiers.py``)."""

from __future__ import annotations

import re

from tests.tiers import SLOW_PATHS, SLOW_TESTS, TESTS


def test_every_path_the_tiers_list_as_slow_exists() -> None:
    missing = [path for path in (*SLOW_PATHS, *SLOW_TESTS) if not (TESTS / path).exists()]
    assert missing == []


def test_every_test_the_tiers_name_as_slow_is_defined_in_its_file() -> None:
    missing = [
        f"{path}::{name}"
        for path, names in SLOW_TESTS.items()
        if (TESTS / path).exists()
        for name in names
        if not re.search(rf"^\s*(async )?def {name}\(", (TESTS / path).read_text(encoding="utf-8"), re.M)
    ]
    assert missing == []
