"""Keeps one working Oxigraph behind the front: restarts it when it exits, replaces it when it bloats."""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from kg.query.serve.errors import ServeError, note
from kg.query.serve.limits import MiB, Limits
from kg.query.serve.process import OxigraphProcess, rss_bytes

__all__ = ["Supervisor"]


class Supervisor:
    """The Oxigraph processes of one endpoint: :attr:`engine` answers, a watch thread keeps it so.

    Oxigraph exits (a query past ``max_memory`` makes it abort): a new one is started,
    every time, since a client can cause this at will; the endpoint stops only when a
    new one cannot start. Its memory stays above half of ``max_memory`` (memory a heavy
    query took is not given back): a fresh one takes the new queries and the old one is
    stopped once the queries it holds have had their time (at most two at a time).
    """

    def __init__(self, binary: str, location: Path, limits: Limits) -> None:
        self.binary, self.location, self.limits = binary, location, limits
        self.engine: OxigraphProcess | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> OxigraphProcess:
        """The first Oxigraph, started by the calling thread."""
        self.engine = self._new()
        return self.engine

    def alive(self) -> bool:
        """The current Oxigraph is running (else a query that failed on it is not sent again)."""
        engine = self.engine
        return engine is not None and engine.alive()

    def watch_in_thread(self, retarget: Callable[[int], None], failed: Callable[[ServeError], None]) -> None:
        """Watch from a thread of its own, which starts the new processes and so lives as long
        as they do (``PR_SET_PDEATHSIG`` follows the thread: see ``process._child_setup``).

        ``retarget(port)`` sends the next queries to a new Oxigraph; ``failed(error)`` is
        called when a new one cannot start.
        """
        self._thread = threading.Thread(target=self._watch, args=(retarget, failed), daemon=True)
        self._thread.start()

    def stop_watching(self) -> None:
        """Start no new Oxigraph from now on; the watch thread ends within a quarter second."""
        self._stopping.set()

    def close(self) -> None:
        """Stop watching, then stop the current Oxigraph."""
        self.stop_watching()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=70)  # it may be starting an Oxigraph (up to 60 s)
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.stop()

    def _new(self) -> OxigraphProcess:
        engine = OxigraphProcess(self.binary, self.location, self.limits.timeout, self.limits.max_memory)
        engine.start()
        return engine

    def _watch(self, retarget: Callable[[int], None], failed: Callable[[ServeError], None]) -> None:
        retiring: list[tuple[OxigraphProcess, float]] = []
        try:
            while not self._stopping.is_set() and self.engine is not None:
                current = self.engine
                if current.process is None:
                    return
                code = _exit_code(current.process, 0.25)
                _stop_retired(retiring)
                if self._stopping.is_set():
                    return
                if code is not None:
                    note(f"{self._exit_reason(code)}; starting a new one")
                    current.stop()
                    self._replace(retarget)
                elif not retiring and self._bloated(current):  # at most two processes at a time
                    self._replace(retarget)
                    retiring.append((current, time.monotonic() + self.limits.timeout + 2))
        except ServeError as error:
            failed(error)
        finally:
            for old, _ in retiring:
                old.stop()

    def _exit_reason(self, code: int) -> str:
        why = f"the Oxigraph server exited with code {code}"
        if code == -signal.SIGABRT and self.limits.max_memory:
            why += f" (a query needed more than {self.limits.max_memory // MiB} MiB?)"
        return why

    def _bloated(self, engine: OxigraphProcess) -> bool:
        """Holding over half of ``max_memory`` (said on stderr)."""
        limit, process = self.limits.max_memory, engine.process
        if not limit or process is None or rss_bytes(process.pid) <= limit // 2:
            return False
        note(f"Oxigraph holds {rss_bytes(process.pid) // MiB} MiB, over half of its "
             f"{limit // MiB} MiB; a fresh one takes the next queries")
        return True

    def _replace(self, retarget: Callable[[int], None]) -> None:
        """Start a new Oxigraph and send the next queries to it."""
        engine = self._new()
        if self._stopping.is_set():  # closed meanwhile
            engine.stop()
            return
        self.engine = engine
        retarget(engine.port)


def _exit_code(process: subprocess.Popen, wait: float) -> int | None:
    """The exit code, waiting up to ``wait`` seconds for it; None while it runs."""
    try:
        return process.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        return None


def _stop_retired(retiring: list[tuple[OxigraphProcess, float]]) -> None:
    """Stop the replaced processes whose queries have had their time."""
    for old, until in list(retiring):
        if time.monotonic() >= until:
            old.stop()
            retiring.remove((old, until))
