"""One client connection: read each request under a deadline, route it, answer it.

Routes: ``/sparql`` and ``/query`` (the SPARQL protocol, checked by
:mod:`~kg.query.serve.protocol`, answered by Oxigraph), ``/update`` (refused) and the
query page; nothing else, so Oxigraph's ``/store`` (the whole dataset) is not exposed.
"""

from __future__ import annotations

import io
import socket
import time
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING

from kg import __version__
from kg.query.serve.page import CSP
from kg.query.serve.protocol import Refused, Reply, accept_header, body_params, query_form, text_reply, url_params

if TYPE_CHECKING:
    from kg.query.serve.front import Front

__all__ = ["Handler"]


class _DeadlineReader(io.RawIOBase):
    """The client socket, read under one deadline for a whole request.

    A socket timeout only bounds each wait for bytes: a client sending one byte
    every few seconds would hold its connection (and a slot) for ever. Each read
    here waits at most until the deadline, then raises ``TimeoutError``.
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.deadline is not None:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the request took too long to arrive")
            self.sock.settimeout(remaining)
        return self.sock.recv_into(buffer)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = f"kg-serve/{__version__}"
    sys_version = ""
    timeout = 30  # seconds a write to the client may wait (reads: Limits.request_timeout in all)
    server: Front

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the socket's own file object: replaced by one with a deadline
        self._reader = _DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self._reader)

    def handle_one_request(self) -> None:
        """One request, which must arrive whole within ``request_timeout`` of waiting for it
        (an idle keep-alive connection closes after as long)."""
        self._reader.deadline = time.monotonic() + self.server.limits.request_timeout
        self.server.waiting(self.request, self.client_address[0], True)
        super().handle_one_request()  # a TimeoutError while reading closes the connection

    def parse_request(self) -> bool:
        ok = super().parse_request()
        if ok:  # line and headers are in: no longer a slow or idle connection to make room from
            self.server.waiting(self.request, self.client_address[0], False)
        return ok

    # ---- routing

    def do_GET(self) -> None:
        self._route(head=False)

    def do_HEAD(self) -> None:
        self._route(head=True)

    def do_POST(self) -> None:
        self._route(head=False)

    def _refuse_method(self) -> None:
        self._send(text_reply(405, f"{self.command} is not allowed: this endpoint is read-only"),
                   extra={"Allow": "GET, HEAD, POST"})

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse_method

    def _route(self, head: bool) -> None:
        if not self.server.host_allowed(self.headers.get("Host")):
            self._discard_body()
            self._send(text_reply(403, "Host not allowed: use localhost or 127.0.0.1"))
            return
        path, _, query_string = self.path.partition("?")
        if path in ("/sparql", "/query"):
            if head:
                self._send(text_reply(405, "HEAD is not a SPARQL query"), head=True)
            else:
                self._send(self._sparql(query_string))
        elif path == "/update":
            self._discard_body()
            self._send(text_reply(403, "updates are refused: this endpoint is read-only"))
        elif self.command in ("GET", "HEAD") and path in self.server.files:
            ctype, body = self.server.files[path]
            extra = {"Content-Security-Policy": CSP} if ctype.startswith("text/html") else {}
            self._send(Reply(200, ctype, body), head=head, extra=extra)
        else:
            self._discard_body()
            self._send(text_reply(404, "not found: the endpoint is /sparql (or /query); a page is at /"),
                       head=head)

    # ---- the SPARQL protocol

    def _sparql(self, query_string: str) -> Reply:
        try:
            params = url_params(query_string)
            if self.command == "POST":
                params += body_params(self.headers.get("Content-Type"), self._read_body())
            form = query_form(params, self.server.limits.max_query_bytes)
        except Refused as refusal:
            return refusal.reply
        return self.server.upstream.forward(form, accept_header(self.headers.get("Accept")))

    def _read_body(self) -> bytes:
        """A POST body of a stated length up to ``max_query_bytes`` (else the connection closes)."""
        limit = self.server.limits.max_query_bytes
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") or length is None:
            self.close_connection = True
            raise Refused(411, "a POST needs a Content-Length")
        try:
            size = int(length)
        except ValueError as error:
            self.close_connection = True
            raise Refused(400, "bad Content-Length") from error
        if size > limit or size < 0:
            self.close_connection = True
            raise Refused(413, f"request body larger than {limit} bytes")
        return self.rfile.read(size)

    # ---- plumbing

    def _discard_body(self) -> None:
        length = self.headers.get("Content-Length")
        if self.command != "POST" or length is None:
            return
        try:
            size = int(length)
        except ValueError:
            size = -1
        if 0 <= size <= self.server.limits.max_query_bytes:
            self.rfile.read(size)
        else:
            self.close_connection = True

    def _send(self, reply: Reply, head: bool = False, extra: dict | None = None) -> None:
        self._reader.deadline = None  # the request is read: writes get the socket timeout
        self.connection.settimeout(self.timeout)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not head:
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)
