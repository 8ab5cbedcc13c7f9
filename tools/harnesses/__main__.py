"""``python -m tools.harnesses [table | docs [--check]]`` (see ``tools.harnesses``)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tools.harnesses.docs import DOCS, render_docs
from tools.harnesses.table import collect, render_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.harnesses", description=__doc__)
    parser.add_argument("command", nargs="?", choices=("table", "docs"), default="table")
    parser.add_argument("--check", action="store_true", help="docs: exit 1 when docs/harnesses.md is stale")
    args = parser.parse_args(argv)
    if args.command == "docs":
        text = render_docs()
        if args.check:
            if DOCS.read_text(encoding="utf-8") != text:
                print(f"{DOCS} is stale: run python -m tools.harnesses docs", file=sys.stderr)
                return 1
            return 0
        DOCS.write_text(text, encoding="utf-8")
        print(f"wrote {DOCS}")
        return 0
    with tempfile.TemporaryDirectory(prefix="moraine-harnesses-") as scratch:
        print(render_table(collect(Path(scratch))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
