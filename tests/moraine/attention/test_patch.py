"""apply_patch bodies: every Update/Add/Delete/Move target is a path."""

from __future__ import annotations

from moraine.attention.patch import patch_paths

PATCH = """*** Begin Patch
*** Update File: src/app.py
@@ def main():
-    pass
+    run()
*** Add File: tests/test_app.py
+def test_x(): ...
*** Delete File: old/legacy.py
*** Update File: src/util.py
*** Move to: src/helpers.py
*** End Patch
"""


def test_every_patch_marker_names_a_path_in_order() -> None:
    assert patch_paths(PATCH) == [
        "src/app.py",
        "tests/test_app.py",
        "old/legacy.py",
        "src/util.py",
        "src/helpers.py",
    ]


def test_text_without_markers_has_no_paths() -> None:
    assert patch_paths("Update File: src/app.py is mentioned in prose") == []
    assert patch_paths("") == []


def test_repeated_targets_are_reported_once() -> None:
    assert patch_paths("*** Update File: a.py\n*** Update File: a.py\n") == ["a.py"]
