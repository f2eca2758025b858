"""One ``oxigraph serve-read-only`` process on a free loopback port: start, wait until ready, stop."""

from __future__ import annotations

import http.client
import math
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from kg.query.serve.errors import ServeError

__all__ = ["OxigraphProcess", "rss_bytes"]


def _free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _child_setup(max_memory: int) -> Callable[[], None]:
    """What runs in the Oxigraph child before exec: die with kg serve, and a memory limit."""

    def setup() -> None:  # pragma: no cover - runs in the child before exec
        # Linux: SIGTERM if kg serve dies (even by SIGKILL). The kernel ties this to the
        # thread that started the child: start it from a thread that lives as long as it.
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # no libc prctl: the child is stopped by close() only
            pass
        if max_memory:
            import resource

            # RLIMIT_DATA counts what the process allocates (heap, anonymous maps), not the
            # store's files: a query that needs more makes Oxigraph abort, and it is restarted.
            resource.setrlimit(resource.RLIMIT_DATA, (max_memory, max_memory))

    return setup


def rss_bytes(pid: int) -> int:
    """Resident memory of a process (Linux ``/proc``; 0 if unknown)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


class OxigraphProcess:
    """``oxigraph serve-read-only`` on 127.0.0.1 and a free port, until :meth:`stop`."""

    def __init__(self, binary: str, location: Path, timeout: float, max_memory: int = 0) -> None:
        self.binary, self.location, self.max_memory = binary, location, max_memory
        self.timeout_s = math.ceil(timeout) + 1  # a backstop behind the front's own deadline
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.log: deque[str] = deque(maxlen=50)
        self._pumping = threading.Thread()

    def start(self, wait: float = 60.0) -> None:
        for _ in range(3):  # the free port may be taken before Oxigraph binds it
            self.port = _free_port()
            command = [
                self.binary, "serve-read-only", "--location", str(self.location),
                "--bind", f"127.0.0.1:{self.port}", "--timeout-s", str(self.timeout_s),
            ]
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, errors="replace",
                # prctl and setrlimit only, no locks: safe after fork even with threads running
                preexec_fn=_child_setup(self.max_memory) if sys.platform == "linux" else None,  # noqa: PLW1509
            )
            self._pumping = threading.Thread(target=self._pump, args=(self.process,), daemon=True)
            self._pumping.start()
            if self._wait_ready(wait):
                return
            self.stop()
            self._pumping.join(timeout=5)
        raise ServeError("oxigraph serve-read-only did not start: " + " | ".join(self.log))

    def alive(self) -> bool:
        """Started and not exited."""
        return self.process is not None and self.process.poll() is None

    def _pump(self, process: subprocess.Popen) -> None:
        """Forward Oxigraph's messages to stderr (it logs only errors)."""
        assert process.stdout is not None
        with process.stdout:
            for line in process.stdout:
                line = line.rstrip()
                self.log.append(line)
                if not line.startswith("Listening for requests"):
                    print(f"oxigraph: {line}", file=sys.stderr, flush=True)

    def _wait_ready(self, wait: float) -> bool:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            try:
                conn.request("GET", "/query?query=ASK%7B%7D",
                             headers={"Accept": "application/sparql-results+json"})
                if conn.getresponse().status == 200:
                    return True
            except OSError:
                pass
            finally:
                conn.close()
            time.sleep(0.05)
        return False

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self._pumping.join(timeout=5)  # it closes the pipe at end of file
