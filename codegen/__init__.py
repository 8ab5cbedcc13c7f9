"""Turn the published contract in ``spec/`` into ``generated/``: load -> plan -> render.

``python -m codegen`` writes ``generated/``; ``python -m codegen --check`` regenerates in memory and exits 1 with a
diff when ``generated/`` has drifted from ``spec/`` (2 on a spec error).
"""

from __future__ import annotations

from codegen.diagnostics import Diagnostic, Severity, SpecError
from codegen.load import Spec, load
from codegen.plan import Plan, plan
from codegen.render import render
from codegen.tree import check_tree, write_tree

__all__ = [
    "Diagnostic",
    "Plan",
    "Severity",
    "Spec",
    "SpecError",
    "check_tree",
    "load",
    "plan",
    "render",
    "write_tree",
]
