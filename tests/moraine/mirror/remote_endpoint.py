"""Run the test ClickHouse HTTP endpoint on its own chDB directory and port, in its own process (a "remote").

Usage: python -m tests.moraine.mirror.remote_endpoint <chdb dir> <port>; prints ``ready`` once it serves.
"""

from __future__ import annotations

import sys

from tests.clickhouse_http import _Server


def main() -> None:
    path, port = sys.argv[1], int(sys.argv[2])
    server = _Server(("127.0.0.1", port), path)
    print("ready", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
