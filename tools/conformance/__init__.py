"""Conformance runner: the interface document's input permutation matrix and traversal contract against any server.

    python -m tools.conformance --stdio "moraine mcp"
    python -m tools.conformance --http http://127.0.0.1:PORT/mcp --header "Authorization: Bearer $(cat ~/.moraine/run/http-secret)"

It imports nothing from the project (standard library, ``mcp``, ``httpx2`` and ``jsonschema`` only), discovers IDs through the
server's own search_sessions/list_sessions/open answers, prints a PASS/FAIL table and exits 1 on any FAIL.
"""
