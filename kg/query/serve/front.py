"""The HTTP server clients talk to: connection limits, slow-client eviction and the loopback Host check.

Bound to loopback, the front answers only requests whose ``Host`` is a loopback
name, so a web page cannot read the endpoint through a hostname that resolves to
127.0.0.1 (DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import time
from collections import Counter
from http.server import ThreadingHTTPServer

from kg.query.serve.errors import note
from kg.query.serve.handler import Handler
from kg.query.serve.limits import Limits
from kg.query.serve.page import static_files
from kg.query.serve.upstream import Upstream

__all__ = ["Front", "is_loopback"]

_LOOPBACK_NAMES = {"localhost", "localhost.", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    """``localhost``, a ``.localhost`` name or a loopback address.

    >>> [is_loopback(h) for h in ("localhost", "[::1]", "127.0.0.2", "attacker.example")]
    [True, True, True, False]
    """
    host = host.strip("[]").lower()
    if host in _LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_name(header: str) -> str:
    header = header.strip()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _busy(text: bytes) -> bytes:
    return (
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: " + str(len(text)).encode() + b"\r\nConnection: close\r\n\r\n" + text
    )


_BUSY = _busy(b"too many connections; try again\n")
_BUSY_CLIENT = _busy(b"too many connections from your address; close some and try again\n")


class Front(ThreadingHTTPServer):
    """The HTTP server clients talk to: one thread per connection, within limits.

    At most ``max_connections`` connections in all and ``max_per_client`` from one
    address. When a new connection would pass a limit, the connection that has been
    waiting longest for its request (at least ``evict_after`` seconds: slow or idle,
    as a slowloris client is) is closed to make room; only when no connection waits
    that long is the new one turned away (503). A client that sends its request at
    once therefore gets in, even beside many slow clients from its own address.
    """

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, upstream: Upstream, limits: Limits, quiet: bool) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.upstream, self.limits, self.quiet = upstream, limits, quiet
        self.files = static_files()
        self.check_host = is_loopback(address[0])
        self._open = 0
        self._per_client: Counter[str] = Counter()
        self._waiting: dict[socket.socket, tuple[str, float]] = {}  # waiting for a request since
        self._counting = threading.Lock()
        super().__init__(address, Handler)

    def host_allowed(self, header: str | None) -> bool:
        return not self.check_host or header is None or is_loopback(_host_name(header))

    def process_request(self, request, client_address):
        client = client_address[0]
        refusal = self._admit(request, client)
        if refusal is not None:
            try:
                request.sendall(refusal)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(request, client)
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request, client_address[0])

    def waiting(self, request, client: str, waiting: bool) -> None:
        """A connection starts (True) or stops (False: its request is read) waiting for a request."""
        with self._counting:
            if waiting:
                self._waiting.setdefault(request, (client, time.monotonic()))
            else:
                self._waiting.pop(request, None)

    def handle_error(self, request, client_address) -> None:
        """A client that went away is no error; anything else is one line, not a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        note(f"error while answering {client_address[0]}: {type(error).__name__}: {error}")

    def _admit(self, request, client: str) -> bytes | None:
        """Count a new connection in, making room if need be; else the 503 to send it."""
        with self._counting:
            if self._per_client[client] >= self.limits.max_per_client and not self._evict(client):
                return _BUSY_CLIENT
            if self._open >= self.limits.max_connections and not self._evict(None):
                return _BUSY
            self._open += 1
            self._per_client[client] += 1
            self._waiting[request] = (client, time.monotonic())
        return None

    def _evict(self, client: str | None) -> bool:
        """Close the connection (of ``client``, or any) waiting longest for its request, if
        it has waited ``evict_after`` s; its thread ends and frees its slot. Lock held."""
        now = time.monotonic()
        candidates = [(since, sock) for sock, (owner, since) in self._waiting.items()
                      if (client is None or owner == client) and now - since >= self.limits.evict_after]
        if not candidates:
            return False
        _, victim = min(candidates, key=lambda c: c[0])
        del self._waiting[victim]
        try:
            victim.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        return True

    def _release(self, request, client: str) -> None:
        with self._counting:
            self._waiting.pop(request, None)
            self._open -= 1
            self._per_client[client] -= 1
            if self._per_client[client] <= 0:
                del self._per_client[client]
