"""Run the fuzz checks against a live HTTP facade (e.g. ``moraine serve``): the larger, socket-bound run.

    .venv/bin/python tests/fuzz/live.py http://127.0.0.1:PORT --cases 2000 --seed 1 --scenarios 200 \
        --header "Authorization: Bearer $(cat ~/.moraine/run/http-secret)"

Loads ``URL/openapi.json``, fuzzes every operation with valid and invalid bodies, then follows the document's
links (search -> open -> open cursor, list -> open, ...). Prints outcome counts; exits 1 on the first failure.
Against a live daemon ``busy`` is an acceptable answer too (its admission queue may be full).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import schemathesis
from schemathesis import GenerationMode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import REQUEST_CODES, FuzzTally, fuzz_operation, operation_ids, run_stateful  # noqa: E402


def _header(text: str) -> tuple[str, str]:
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise SystemExit(f"--header must be 'Name: value', got {text!r}")
    return name.strip(), value.strip()


def main(argv: list[str] | None = None) -> int:
    """Fuzz the facade at the given URL and print what every operation answered."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("url", help="base URL of the facade, e.g. http://127.0.0.1:8765")
    parser.add_argument("--cases", type=int, default=2000, help="generated cases per operation and mode")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--scenarios", type=int, default=200, help="link-following scenarios")
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        help="'Name: value' sent with every request (the daemon needs 'Authorization: Bearer <secret>')",
    )
    args = parser.parse_args(argv)
    headers = dict(_header(text) for text in args.header)
    schema = schemathesis.openapi.from_url(f"{args.url.rstrip('/')}/openapi.json", headers=headers)
    schema.config.update(headers=headers)
    allowed = REQUEST_CODES | {"busy"}
    tally = FuzzTally()
    try:
        for tool in operation_ids(schema):
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                fuzz_operation(schema, tool, args.cases, args.seed, mode=mode, allowed=allowed, tally=tally)
        run_stateful(schema, scenarios=args.scenarios, steps=8, allowed=allowed, tally=tally)
    finally:
        for name, counts in sorted(tally.outcomes.items()):
            print(f"{name:55} {sum(counts.values()):6}  {dict(counts.most_common())}")
    print("PASS: every response was a conforming envelope")
    return 0


if __name__ == "__main__":
    sys.exit(main())
