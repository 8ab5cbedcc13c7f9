"""``python -m codegen [--check] [--spec DIR] [--out DIR]``: exit 0 clean, 1 drift (with a diff), 2 spec error."""

from __future__ import annotations

import argparse
import sys
from enum import IntEnum
from pathlib import Path

from codegen.diagnostics import SpecError
from codegen.load import load
from codegen.plan import plan
from codegen.render import render
from codegen.tree import check_tree, write_tree

_ROOT = Path(__file__).resolve().parent.parent


class Exit(IntEnum):
    OK = 0
    DRIFT = 1
    ERROR = 2


def main(argv: list[str] | None = None) -> int:
    """Generate ``generated/`` from ``spec/``, or check that it is up to date."""
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument(
        "--check", action="store_true", help="compare with the output directory; write nothing"
    )
    parser.add_argument("--spec", type=Path, default=_ROOT / "spec", help="spec directory (default: spec/)")
    parser.add_argument(
        "--out", type=Path, default=_ROOT / "generated", help="output directory (default: generated/)"
    )
    args = parser.parse_args(argv)
    try:
        files = render(plan(load(args.spec)))
    except SpecError as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic, file=sys.stderr)
        return Exit.ERROR
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return Exit.ERROR
    if args.check:
        diff = check_tree(files, args.out)
        if diff:
            sys.stdout.write(diff)
            print(f"\n{args.out} is out of date with {args.spec}: run python -m codegen", file=sys.stderr)
            return Exit.DRIFT
        return Exit.OK
    for rel in write_tree(files, args.out):
        print(f"wrote {rel}")
    return Exit.OK


if __name__ == "__main__":
    sys.exit(main())
