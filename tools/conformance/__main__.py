"""CLI: ``python -m tools.conformance --stdio "CMD" | --http URL [--header H ...] [--path P] [--unknown-session-id ID ...]``."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any

import anyio
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tools.conformance.discover import DiscoveryError, discover
from tools.conformance.matrix import run_matrix
from tools.conformance.probe import Probe
from tools.conformance.report import Report
from tools.conformance.traversal import run_traversal

TOOLS = {"search_sessions", "open", "list_sessions", "file_attention"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.conformance", description=__doc__)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--stdio", help='server command, e.g. "moraine mcp" (run with this environment)')
    target.add_argument("--http", help="streamable HTTP MCP endpoint, e.g. http://127.0.0.1:8765/mcp")
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        help="'Name: value' sent with every HTTP request (Moraine's daemon needs 'Authorization: Bearer <secret>')",
    )
    parser.add_argument("--path", default="README.md", help="file path for the file_attention rows")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one tool call")
    for kind in ("session", "turn", "event"):
        parser.add_argument(f"--unknown-{kind}-id", help=f"a well-formed {kind} ID the server does not hold")
    return parser


async def run(args: argparse.Namespace) -> Report:
    """Connect, discover, run the matrix and the traversal contract; return the report."""
    server: Any
    if args.stdio:
        argv = shlex.split(args.stdio)
        server = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ), cwd=os.getcwd())
    else:
        pairs = [text.partition(":") for text in args.header]
        headers = {name.strip(): value.strip() for name, _, value in pairs}
        http = httpx2.AsyncClient(headers=headers, timeout=args.timeout)
        server = streamable_http_client(args.http, http_client=http)
    report = Report()
    async with Client(server, read_timeout_seconds=args.timeout) as client:
        probe = Probe(client)
        names = await probe.load_tools()
        report.add("tools", "lists the four tools with output schemas", TOOLS <= set(names) and TOOLS <= set(
            probe.validators), f"listed {sorted(names)}")  # fmt: skip
        unknown = {k: v for k in ("session", "turn", "event") if (v := getattr(args, f"unknown_{k}_id"))}
        try:
            corpus = await discover(probe, unknown)
        except DiscoveryError as exc:
            report.add("discovery", "finds a session, turn, event and query", False, str(exc))
            return report
        report.add("discovery", "finds a session, turn, event and query", True,
                   f"query={corpus.query!r} session={corpus.session_id}")  # fmt: skip
        await run_matrix(probe, report, corpus, args.path)
        await run_traversal(probe, report, corpus)
    return report


def main(argv: list[str] | None = None) -> int:
    """Run the checks and print the table; exit 1 on any FAIL."""
    args = _parser().parse_args(argv)
    report = anyio.run(run, args)
    print(report.render())
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
