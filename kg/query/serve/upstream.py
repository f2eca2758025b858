"""The way to Oxigraph: at most ``max_concurrent`` queries in flight, over reused connections,
each answer read under the query's deadline and up to ``max_result_bytes``."""

from __future__ import annotations

import http.client
import queue
import threading
import time
import urllib.parse
from collections.abc import Callable

from kg.query.serve.limits import Limits
from kg.query.serve.protocol import FORM, Reply, text_reply

__all__ = ["Upstream"]


class _Retry(Exception):
    """Oxigraph closed the connection before answering."""


class _Down(Exception):
    """Oxigraph refused the connection: it is not running (being restarted)."""


class Upstream:
    """At most ``max_concurrent`` queries in flight to Oxigraph, over reused connections."""

    def __init__(self, port: int, limits: Limits, alive: Callable[[], bool] = lambda: True) -> None:
        self.port, self.limits, self.alive = port, limits, alive
        self._idle: queue.LifoQueue[http.client.HTTPConnection] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(limits.max_concurrent)
        self._lock = threading.Lock()
        self.in_flight = 0

    def retarget(self, port: int) -> None:
        """Send new queries to another Oxigraph (a restarted one); queries on the way finish."""
        self.port = port
        self.close()

    def forward(self, form: list[tuple[str, str]], accept: str) -> Reply:
        limits = self.limits
        deadline = time.monotonic() + limits.timeout
        if not self._slots.acquire(timeout=limits.timeout):
            return text_reply(503, f"busy: no query slot within {limits.timeout:g} s; try again")
        with self._lock:
            self.in_flight += 1
        try:
            body = urllib.parse.urlencode(form).encode("utf-8")
            headers = {"Content-Type": FORM, "Accept": accept}
            while True:
                conn, reused = self._connection()
                try:
                    return self._exchange(conn, body, headers, deadline)
                except _Retry:
                    # A keep-alive connection Oxigraph had closed: send again. Not when the
                    # Oxigraph it led to has died or been replaced: this query may be why.
                    if reused and conn.port == self.port and self.alive():
                        continue
                    return text_reply(502, "the SPARQL engine stopped while answering (a query needing "
                                           "more memory than the endpoint allows?); try again")
                except _Down:  # nothing was sent: Oxigraph is being restarted
                    if time.monotonic() + 0.1 >= deadline:
                        return text_reply(503, "the SPARQL engine is restarting; try again")
                    time.sleep(0.1)
        finally:
            with self._lock:
                self.in_flight -= 1
            self._slots.release()

    def close(self) -> None:
        """Close the idle connections."""
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    def _connection(self) -> tuple[http.client.HTTPConnection, bool]:
        """An idle keep-alive connection (reused: True) or a new one."""
        try:
            return self._idle.get_nowait(), True
        except queue.Empty:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.limits.timeout)
            return conn, False

    def _exchange(self, conn, body: bytes, headers: dict, deadline: float) -> Reply:
        limits, keep = self.limits, False
        try:
            response = _send(conn, body, headers, deadline)
            content = _read_within(conn, response, deadline, limits.max_result_bytes)
            if content is None:
                return text_reply(413, f"result larger than the endpoint's limit of "
                                       f"{limits.max_result_bytes} bytes: add a LIMIT")
            keep = not response.will_close
            ctype = response.getheader("Content-Type", "application/octet-stream")
            return Reply(response.status, ctype, content)
        except TimeoutError:
            return text_reply(503, f"query timed out after {limits.timeout:g} s")
        except (OSError, http.client.HTTPException) as error:
            return text_reply(502, f"the SPARQL engine failed: {error}")
        finally:
            if keep and conn.port == self.port:  # not to an Oxigraph that was replaced
                self._idle.put(conn)
            else:
                conn.close()


def _send(conn: http.client.HTTPConnection, body: bytes, headers: dict,
          deadline: float) -> http.client.HTTPResponse:
    """POST the query; the response's status and headers, by the deadline."""
    remaining = deadline - time.monotonic()
    conn.timeout = max(remaining, 0.001)
    if conn.sock is not None:
        conn.sock.settimeout(conn.timeout)
    try:
        conn.request("POST", "/query", body, headers)
        return conn.getresponse()
    except ConnectionRefusedError as error:
        raise _Down from error
    except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as error:
        raise _Retry from error


def _read_within(conn: http.client.HTTPConnection, response: http.client.HTTPResponse, deadline: float,
                 limit: int) -> bytes | None:
    """The body, read by the deadline (else ``TimeoutError``); None past ``limit`` bytes."""
    chunks, size = [], 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        conn.sock.settimeout(remaining)
        chunk = response.read1(1 << 16)
        if not chunk:
            response.close()  # read1 leaves a complete fixed-length response open
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
