"""Tool calls for one-shot commands (``moraine search``, ``open``, ``export``...): the daemon answers when it runs.

While a daemon runs it owns the store, so a call goes over its Unix socket (``/v1/daemon/call``) and gets the
envelope MCP clients get. Without one, the command opens the store itself and answers through the same
``ToolService`` the servers use: same checks, handlers, envelopes and validation either way.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from moraine.handler_api import load_handler_table
from moraine.config import Config
from moraine.daemon.client import DaemonConnection
from moraine.daemon.launcher import live_state
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.writer_lock import held_reason
from moraine.errors import StoreError
from moraine.private_files import restrict_process
from moraine.server.runtime import open_deps
from moraine.server.service import ToolCall, ToolReply, ToolService

__all__ = ["open_tool_call"]


@asynccontextmanager
async def open_tool_call(config: Config) -> AsyncIterator[ToolCall]:
    """Yield a tool-call function for ``config``'s store: through its running daemon, else on the store directly.

    Calls carry the current directory as the launch directory (``file_attention`` resolves paths against it).

    Raises:
        StoreError: no daemon runs and the store cannot be opened (a writer holding it is named).
        DaemonUnreachable: the daemon went away during a call.
    """
    state = live_state(DaemonPaths(config.home))
    if state is not None:
        connection = DaemonConnection(Path(state.socket))

        async def relayed(tool: str, arguments: dict[str, Any]) -> ToolReply:
            envelope, is_error = await connection.call(tool, arguments)
            return ToolReply(envelope, is_error)

        try:
            yield relayed
        finally:
            await connection.aclose()
        return
    restrict_process()  # opening the store (and the cursor secret) may create files under the home: user-only
    held = held_reason(config)  # before chDB prints its own lock error
    if held is not None:
        raise StoreError(held)
    deps = open_deps(config, launch_dir=Path(os.getcwd()))
    try:
        yield ToolService(deps, load_handler_table()).call
    finally:
        deps.store.close()
