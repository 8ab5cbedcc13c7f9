"""The daemon: one process owns the store, ingests, and serves every agent (``moraine serve``; ``moraine mcp`` relays).

- ``paths``: where the daemon keeps its socket, state, locks and log under ``$MORAINE_HOME``.
- ``settings``: the ``[daemon]`` table of the configuration.
- ``state``: the state file written atomically once the daemon is ready; liveness checks.
- ``locks``: the owner lock (one daemon per home) and the spawn lock (one starter at a time).
- ``admission``: at most N calls run, up to M wait in FIFO order, the next is ``busy``.
- ``cancel``: the call runner: admission, a store per running call, KILL QUERY when a call is cancelled.
- ``app``: the daemon's ASGI app (MCP over streamable HTTP, the facade, the relay endpoints).
- ``ingest``: backfill then watch, in a background thread, with progress.
- ``logs``: logging to ``logs/daemon.log`` and reading its tail.
- ``lifecycle``: run the daemon (listeners, readiness, signals, clean shutdown).
- ``launcher``: find the running daemon or start one (no race), wait for readiness.
- ``client``: talk to the daemon over its Unix socket.
- ``calls``: tool calls for one-shot commands (the daemon when it runs, else the store opened here).
- ``relay``: the stdio MCP server agents launch, forwarding calls to the daemon.
- ``mcp_clients``: MCP client configuration for every registered client (``moraine setup``).
"""
