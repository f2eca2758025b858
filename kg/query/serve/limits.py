"""What one endpoint allows: the limits the front and the Oxigraph process are held to."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MiB", "Limits"]

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What one endpoint allows.

    ``timeout``: seconds per query (including waiting for a slot);
    ``max_result_bytes``: largest response body; ``max_query_bytes``: largest
    query (and POST body); ``max_concurrent``: queries evaluated at once;
    ``max_connections``: open client connections; ``max_per_client``: open
    connections from one client address; ``request_timeout``: seconds a client
    may take to send a whole request (line, headers and body), and may leave a
    connection idle; ``evict_after``: when a new connection would pass a
    connection limit, a connection that has waited this long for its request is
    closed to make room (``math.inf``: never); ``max_memory``: bytes of memory the Oxigraph process may
    allocate (``RLIMIT_DATA``; beyond it the process dies and is restarted),
    0 for no limit. Above half of it, Oxigraph is replaced by a fresh process
    once its queries are done, which gives the memory back.
    """

    timeout: float = 30.0
    max_result_bytes: int = 16 * MiB
    max_query_bytes: int = 64 * 1024
    max_concurrent: int = 8
    max_connections: int = 64
    max_per_client: int = 32
    request_timeout: float = 10.0
    evict_after: float = 1.0
    max_memory: int = 2048 * MiB
