"""The endpoint put together: store, supervised Oxigraph, front; :func:`serve` runs it until stopped."""

from __future__ import annotations

import os
import shutil
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from kg.query import sparql
from kg.query.serve.binary import find_oxigraph
from kg.query.serve.errors import ServeError
from kg.query.serve.front import Front
from kg.query.serve.limits import Limits
from kg.query.serve.process import OxigraphProcess
from kg.query.serve.store import prepare_store
from kg.query.serve.supervisor import Supervisor
from kg.query.serve.upstream import Upstream

__all__ = ["SparqlServer", "serve"]


class SparqlServer:
    """The endpoint: Oxigraph process + front. A context manager::

        with SparqlServer("out", port=0) as server:
            print(server.url)            # http://127.0.0.1:<port>/sparql
            server.serve_forever()       # or server.serve_in_thread()
    """

    def __init__(
        self,
        graph: str | os.PathLike[str],
        *,
        host: str = "127.0.0.1",
        port: int = 7878,
        limits: Limits = Limits(),
        oxigraph: str | os.PathLike[str] | None = None,
        quiet: bool = False,
    ) -> None:
        self.graph = sparql.graph_file(graph)
        self.host, self.port, self.limits, self.quiet = host, port, limits, quiet
        self.binary = find_oxigraph(oxigraph)
        self.supervisor: Supervisor | None = None
        self.front: Front | None = None
        self._store: tuple[Path, bool] | None = None
        self._thread: threading.Thread | None = None
        self.failure: str | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/sparql"

    @property
    def oxigraph(self) -> OxigraphProcess | None:
        """The Oxigraph process answering now (a restart or a replacement changes it)."""
        return None if self.supervisor is None else self.supervisor.engine

    def start(self) -> SparqlServer:
        try:
            self._store = prepare_store(self.graph, self.binary)
            self.supervisor = Supervisor(self.binary, self._store[0], self.limits)
            engine = self.supervisor.start()
            upstream = Upstream(engine.port, self.limits, alive=self.supervisor.alive)
            try:
                self.front = Front((self.host, self.port), upstream, self.limits, self.quiet)
            except OSError as error:
                raise ServeError(f"cannot listen on {self.host}:{self.port}: {error}") from error
            self.port = self.front.server_address[1]
        except BaseException:
            self.close()
            raise
        return self

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown` or until Oxigraph exits (then :class:`ServeError`)."""
        assert self.front is not None and self.supervisor is not None, "start() first"
        self.supervisor.watch_in_thread(self.front.upstream.retarget, self._failed)
        self.front.serve_forever(poll_interval=0.2)
        if self.failure:
            raise ServeError(self.failure)

    def serve_in_thread(self) -> SparqlServer:
        """Serve from a background thread (for tests and embedding); :meth:`close` stops it."""
        self._thread = threading.Thread(target=self._serve_quietly, daemon=True)
        self._thread.start()
        return self

    def _serve_quietly(self) -> None:
        try:
            self.serve_forever()
        except ServeError:
            pass

    def _failed(self, error: ServeError) -> None:
        """A new Oxigraph cannot start: the front stops and :meth:`serve_forever` raises."""
        self.failure = str(error)
        if self.front is not None:
            self.front.shutdown()

    def shutdown(self) -> None:
        if self.front is not None:
            self.front.shutdown()

    def close(self) -> None:
        front, self.front = self.front, None
        if self.supervisor is not None:
            self.supervisor.stop_watching()
        if front is not None:
            if self._thread is not None:
                front.shutdown()
                self._thread.join(timeout=10)
            front.server_close()
            front.upstream.close()
        if self.supervisor is not None:
            self.supervisor.close()
        if self._store is not None and self._store[1]:
            shutil.rmtree(self._store[0], ignore_errors=True)
        self._store = None

    def __enter__(self) -> SparqlServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def serve(
    graph: str | os.PathLike[str],
    *,
    host: str = "127.0.0.1",
    port: int = 7878,
    limits: Limits = Limits(),
    oxigraph: str | os.PathLike[str] | None = None,
    quiet: bool = False,
    ready: Callable[[SparqlServer], None] | None = None,
) -> None:
    """Serve ``graph`` (a build directory or an RDF file) until interrupted (Ctrl-C, SIGTERM)."""
    server = SparqlServer(graph, host=host, port=port, limits=limits, oxigraph=oxigraph, quiet=quiet)

    def stop(signum, frame):
        raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop) if main else None
    try:
        with server:
            if ready is not None:
                ready(server)
            try:
                server.serve_forever()
            except KeyboardInterrupt:
                pass
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
