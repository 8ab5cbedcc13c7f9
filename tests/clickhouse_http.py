"""A test-only ClickHouse HTTP endpoint that runs every query on chDB (the real engine), for the http:// store path.

It speaks what clickhouse-connect's HTTP client sends: the query in the URL or the body, ``param_*`` bindings,
settings as URL parameters, ``INSERT ... FORMAT Native`` with a binary body (optionally lz4/zstd/gzip compressed,
lz4 as several frames), results in the query's ``FORMAT``, ``X-ClickHouse-*`` headers, and errors as HTTP 500 with
``Code: N``. See DESIGN.md "Testing the ClickHouse server path".
"""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import tempfile
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import chdb

__all__ = ["ClickHouseHttpEndpoint"]

# URL parameters the HTTP interface consumes itself (not engine settings).
_TRANSPORT = {
    "query",
    "database",
    "user",
    "password",
    "session_id",
    "session_timeout",
    "session_check",
    "query_id",
    "default_format",
    "compress",
    "decompress",
    "enable_http_compression",
    "wait_end_of_query",
    "send_progress_in_http_headers",
    "http_headers_progress_interval_ms",
    "cancel_http_readonly_queries_on_client_close",
    "client_protocol_version",
    "output_format_arrow_string_as_string",
}
_FORMAT = re.compile(rb"\bFORMAT\s+([A-Za-z0-9_]+)\s*$", re.I)
_INSERT_NATIVE = re.compile(rb"^\s*(INSERT\s+INTO\s+.*?)\s+FORMAT\s+Native[ \t]*\n", re.I | re.S)
_CODE = re.compile(r"Code: (\d+)")


def _decompress(data: bytes, encoding: str) -> bytes:
    if not data or not encoding:
        return data
    if encoding == "lz4":
        import lz4.frame

        out = bytearray()
        while data:  # clickhouse-connect sends one frame per chunk
            decompressor = lz4.frame.LZ4FrameDecompressor()
            out += decompressor.decompress(data)
            data = decompressor.unused_data
        return bytes(out)
    if encoding == "zstd":
        import zstandard

        reader = zstandard.ZstdDecompressor().stream_reader(data, read_across_frames=True)
        return reader.read()
    if encoding == "gzip":
        return gzip.decompress(data)
    raise ValueError(f"unsupported Content-Encoding {encoding!r}")


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._serve(b"")

    def do_POST(self) -> None:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            body = self._read_chunked()
        else:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
        self._serve(_decompress(body, (self.headers.get("Content-Encoding") or "").lower()))

    def _read_chunked(self) -> bytes:
        out = bytearray()
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):  # trailers
                    pass
                return bytes(out)
            out += self.rfile.read(size)
            self.rfile.readline()

    def _serve(self, body: bytes) -> None:
        url = urlsplit(self.path)
        if url.path == "/ping":
            self._reply(200, b"Ok.\n", {})
            return
        params = dict(parse_qsl(url.query, keep_blank_values=True))
        query = params.get("query", "").encode()
        sql = query + (b"\n" + body if query and body else body)
        bindings = {k[6:]: v for k, v in params.items() if k.startswith("param_")}
        settings = {k: v for k, v in params.items() if k not in _TRANSPORT and not k.startswith("param_")}
        try:
            out, fmt = self.server.run(sql, bindings, settings, params.get("database"))
        except Exception as exc:  # the engine's error goes back the way ClickHouse reports it
            message = str(exc) + " [sql: " + sql[:300].decode("utf-8", "replace") + "]"
            match = _CODE.search(message)
            code = match.group(1) if match else "1002"
            text = message if match else f"Code: {code}. DB::Exception: {message}"
            self._reply(500, text.encode(), {"X-ClickHouse-Exception-Code": code})
            return
        self._reply(200, out, {"X-ClickHouse-Format": fmt} if fmt else {})

    def _reply(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=UTF-8")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("X-ClickHouse-Server-Display-Name", "chdb-test-endpoint")
        self.send_header("X-ClickHouse-Query-Id", str(uuid.uuid4()))
        self.send_header("X-ClickHouse-Timezone", "UTC")
        self.send_header("X-ClickHouse-Summary", json.dumps({"read_rows": "0", "written_rows": "0"}))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], path: str) -> None:
        super().__init__(address, _Handler)
        self.chdb_path = path
        self.lock = threading.Lock()
        self.conn = chdb.connect(path)

    def server_bind(self) -> None:
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # else ~48 ms per query
        super().server_bind()

    def run(
        self, sql: bytes, bindings: dict[str, str], settings: dict[str, str], database: str | None
    ) -> tuple[bytes, str]:
        insert = _INSERT_NATIVE.match(sql)
        with self.lock:  # one handle: SET/USE state must not interleave between requests
            if database:
                self.conn.query(f"USE {database}", "TabSeparated")
            applied = []
            for key, value in settings.items():
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                    self.conn.query(f"SET {key} = {_literal(value)}", "TabSeparated")
                    applied.append(key)
            try:
                if insert:
                    return self._insert(insert.group(1).decode(), sql[insert.end() :]), ""
                trailing = _FORMAT.search(sql)
                fmt = trailing.group(1).decode() if trailing else "TabSeparated"
                result = self.conn.query(sql.decode("utf-8", "replace"), fmt, params=bindings)
                return result.bytes() or b"", fmt
            finally:
                for key in applied:
                    self.conn.query(f"SET {key} = DEFAULT", "TabSeparated")

    def _insert(self, head: str, data: bytes) -> bytes:
        tmp = tempfile.NamedTemporaryFile(suffix=".native", delete=False)  # noqa: SIM115 (closed below)
        try:
            tmp.write(data)
            tmp.close()
            self.conn.query(f"{head} FROM INFILE '{tmp.name}' FORMAT Native", "TabSeparated")
        finally:
            os.unlink(tmp.name)
        return b""


def _literal(value: str) -> str:
    if re.fullmatch(r"-?\d+(\.\d+)?", value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


class ClickHouseHttpEndpoint:
    """Serve ClickHouse's HTTP interface on localhost for the chDB directory ``path`` (this process's engine)."""

    def __init__(self, path: str) -> None:
        self._server = _Server(("127.0.0.1", 0), path)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> ClickHouseHttpEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        self._server.conn.close()
