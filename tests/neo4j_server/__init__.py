"""A real Neo4j 5 Community server for the tests, run from its Maven Central jars.

No Docker and no download outside Maven: ``pom.xml`` beside this file names the
jars, Maven resolves them (into ``~/.m2``, reused by later runs but never
required: a missing jar is downloaded again), and this module runs Neo4j's own
entry points with plain ``java -cp``:

* the server: ``org.neo4j.server.CommunityEntryPoint``, what ``neo4j console`` runs;
* neo4j-admin: ``org.neo4j.cli.AdminTool``, the class the ``neo4j-admin`` script
  ends up running (``dbms set-initial-password``, ``database import full``);
* cypher-shell: ``org.neo4j.shell.Main``.

:class:`Neo4jServer` writes a minimal ``neo4j.conf`` into a home directory
(Bolt on 127.0.0.1 at a free port, HTTP off, auth on, no usage reports), sets
the ``neo4j`` user's password with neo4j-admin before the first start, starts
the server and waits until it answers over Bolt. ``stop()`` shuts it down
cleanly, ``kill()`` like a crash (SIGKILL); ``start()`` again reopens the same
home, so recovery after a crash is Neo4j's own.

By hand (``python tests/neo4j_server --help``)::

    .venv/bin/python tests/neo4j_server install     # resolve the jars with Maven
    .venv/bin/python tests/neo4j_server run         # start one; prints its URI and password
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
POM = HERE / "pom.xml"
#: Where the resolved classpaths are kept (ignored by git); the jars themselves stay in ~/.m2.
TARGET = HERE / "target"
SERVER_MAIN = "org.neo4j.server.CommunityEntryPoint"
ADMIN_MAIN = "org.neo4j.cli.AdminTool"
SHELL_MAIN = "org.neo4j.shell.Main"
#: Java versions Neo4j 5.26 runs on.
JAVA_VERSIONS = (17, 21)
USER = "neo4j"

__all__ = ["Neo4jServer", "Neo4jServerError", "classpath", "free_port", "java", "neo4j_version"]


class Neo4jServerError(RuntimeError):
    """The jars could not be resolved, or the server did not start or stop."""


def neo4j_version() -> str:
    """The Neo4j version ``pom.xml`` pins."""
    match = re.search(r"<neo4j\.version>([^<]+)</neo4j\.version>", POM.read_text(encoding="utf-8"))
    if match is None:
        raise Neo4jServerError(f"no <neo4j.version> in {POM}")
    return match.group(1)


def _java_major(command: str) -> int:
    shown = subprocess.run([command, "-version"], capture_output=True, text=True, check=False)
    match = re.search(r'version "(\d+)', shown.stderr)
    return int(match.group(1)) if match else 0


def java() -> str:
    """The ``java`` to run Neo4j with (17 or 21).

    The first of these that is 17 or 21: ``$JAVA_HOME/bin/java``, the ``java`` on the
    PATH, Debian's ``/usr/lib/jvm/java-17-openjdk-*`` and ``java-21-openjdk-*``.
    """
    home = os.environ.get("JAVA_HOME")
    candidates = [str(Path(home) / "bin" / "java")] if home else []
    candidates += [shutil.which("java") or ""]
    candidates += sorted(str(p) for v in JAVA_VERSIONS
                         for p in Path("/usr/lib/jvm").glob(f"java-{v}-openjdk-*/bin/java"))  # fmt: skip
    found = []
    for command in candidates:
        if command and Path(command).exists():
            major = _java_major(command)
            if major in JAVA_VERSIONS:
                return command
            found.append(f"{command} is Java {major or '?'}")
    raise Neo4jServerError(
        f"Neo4j {neo4j_version()} runs on Java 17 or 21 ({'; '.join(found) or 'no java found'}): "
        "apt-get install openjdk-17-jre-headless, or set JAVA_HOME to a Java 17"
    )


def classpath(profile: str = "server", *, refresh: bool = False) -> str:
    """The classpath of a ``pom.xml`` profile (``server`` or ``cypher-shell``), resolved by Maven.

    Maven runs when the classpath was never resolved, when ``pom.xml`` changed since,
    when a jar it names is gone (a cleaned ``~/.m2``), or when ``refresh`` is true.
    """
    saved = TARGET / f"{profile}.classpath"
    if not refresh and saved.is_file() and saved.stat().st_mtime >= POM.stat().st_mtime:
        jars = saved.read_text(encoding="utf-8").strip().split(os.pathsep)
        if jars and all(Path(jar).is_file() for jar in jars):
            return os.pathsep.join(jars)
    mvn = shutil.which("mvn")
    if mvn is None:
        raise Neo4jServerError("no mvn found: install Maven (apt-get install maven)")
    TARGET.mkdir(exist_ok=True)
    command = [
        mvn, "-B", "-q", "-Dstyle.color=never", "-f", str(POM), "-P", profile,
        "dependency:build-classpath", f"-Dmdep.outputFile={saved}",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not saved.is_file():
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise Neo4jServerError(
            f"Maven could not resolve the Neo4j jars ({' '.join(command)}):\n{tail}"
        )
    return saved.read_text(encoding="utf-8").strip()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tail(path: Path, lines: int = 20) -> str:
    if not path.is_file():
        return f"({path.name}: none)"
    text = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    return f"{path.name}:\n" + "\n".join(text[-lines:])


class Neo4jServer:
    """One Neo4j Community server on 127.0.0.1, its data in ``home`` (a new temp dir by default).

    Used as ``with Neo4jServer(heap="512m") as server: server.driver().execute_query(...)``;
    the ``with`` block starts it, and stops it and removes its temp dir at the end.
    """

    def __init__(
        self,
        home: str | Path | None = None,
        *,
        password: str | None = None,
        port: int | None = None,
        heap: str = "768m",
        pagecache: str = "256m",
    ) -> None:
        self._own_home = home is None
        self.home = Path(home) if home is not None else Path(tempfile.mkdtemp(prefix="kg-neo4j-"))
        self.password = password or "kg-" + secrets.token_urlsafe(12)
        self.port = port or free_port()
        self.heap = heap
        self.pagecache = pagecache
        self.process: subprocess.Popen | None = None
        self._drivers: list = []

    # ------------------------------------------------------------ paths and commands

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def console_log(self) -> Path:
        return self.home / "logs" / "console.log"

    def _env(self) -> dict[str, str]:
        return {**os.environ, "NEO4J_HOME": str(self.home), "NEO4J_CONF": str(self.conf_dir)}

    def write_conf(self) -> None:
        """``conf/neo4j.conf``: loopback only, one Bolt port, auth on, small memory."""
        self.conf_dir.mkdir(parents=True, exist_ok=True)
        (self.home / "logs").mkdir(exist_ok=True)
        lines = [
            "# Written by tests/neo4j_server for the kg tests.",
            "server.default_listen_address=127.0.0.1",
            f"server.bolt.listen_address=127.0.0.1:{self.port}",
            f"server.bolt.advertised_address=127.0.0.1:{self.port}",
            "server.http.enabled=false",
            "server.https.enabled=false",
            "dbms.security.auth_enabled=true",
            # the tests try wrong passwords on purpose; no lock-out between tests
            "dbms.security.auth_max_failed_attempts=0",
            "dbms.usage_report.enabled=false",
            f"server.memory.pagecache.size={self.pagecache}",
            f"server.directories.import={self.home / 'import'}",
        ]
        (self.conf_dir / "neo4j.conf").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def admin(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        """Run ``neo4j-admin ARGS`` (``org.neo4j.cli.AdminTool``) on this home; the server may be down."""
        self.write_conf()
        command = [java(), f"-Xmx{self.heap}", "-cp", classpath("server"), ADMIN_MAIN, *args]
        done = subprocess.run(command, env=self._env(), capture_output=True, text=True, check=False)
        if check and done.returncode != 0:
            raise Neo4jServerError(
                f"neo4j-admin {' '.join(args[:3])} failed ({done.returncode}):\n"
                + "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
            )
        return done

    def cypher_shell(
        self, *args: str, input: str | None = None, password: str | None = None
    ) -> subprocess.CompletedProcess:
        """Run ``cypher-shell -a URI -u neo4j ARGS`` (the password goes through the environment)."""
        command = [
            java(), "-Xmx256m", "-cp", classpath("cypher-shell"), SHELL_MAIN,
            "-a", self.uri, "-u", USER, "--non-interactive", *args,
        ]  # fmt: skip
        env = {**os.environ, "NEO4J_PASSWORD": self.password if password is None else password}
        return subprocess.run(
            command, input=input, env=env, capture_output=True, text=True, check=False
        )

    # ------------------------------------------------------------ life cycle

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 180.0) -> Neo4jServer:
        """Start the server (setting the password first if the home is new); wait until Bolt answers."""
        if self.running:
            return self
        self.write_conf()
        if not (self.home / "data" / "dbms" / "auth.ini").exists() and not (
            self.home / "data" / "databases" / "system"
        ).exists():
            self.admin("dbms", "set-initial-password", self.password)
        command = [
            java(), f"-Xms{self.heap}", f"-Xmx{self.heap}", "-XX:+UseG1GC",
            "-cp", classpath("server"), SERVER_MAIN,
            f"--home-dir={self.home}", f"--config-dir={self.conf_dir}",
        ]  # fmt: skip
        with open(self.console_log, "ab") as log:
            self.process = subprocess.Popen(
                command, env=self._env(), stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        from neo4j import GraphDatabase
        from neo4j.exceptions import DriverError, Neo4jError

        deadline = time.monotonic() + timeout
        last: Exception | None = None
        while time.monotonic() < deadline:
            if not self.running:
                raise Neo4jServerError(
                    f"Neo4j exited with {self.process.returncode} while starting; "
                    + _tail(self.console_log) + "\n" + _tail(self.home / "logs" / "debug.log")
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    pass
                with GraphDatabase.driver(self.uri, auth=(USER, self.password)) as driver:
                    driver.execute_query("RETURN 1")
                return
            except (OSError, DriverError, Neo4jError) as exc:
                last = exc
                time.sleep(0.3)
        self.kill()
        raise Neo4jServerError(
            f"Neo4j did not answer on {self.uri} within {timeout:.0f} s (last: {last}); "
            + _tail(self.console_log)
        )

    def driver(self, **config):
        """A driver for this server, closed by :meth:`stop` / :meth:`kill`."""
        from neo4j import GraphDatabase

        driver = GraphDatabase.driver(self.uri, auth=(USER, self.password), **config)
        self._drivers.append(driver)
        return driver

    def _close_drivers(self) -> None:
        for driver in self._drivers:
            driver.close()
        self._drivers.clear()

    def stop(self, timeout: float = 60.0) -> None:
        """Shut down cleanly (SIGTERM), or kill after ``timeout`` seconds."""
        self._close_drivers()
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """Kill the server like a crash (SIGKILL): no shutdown, no checkpoint."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def remove(self) -> None:
        """Stop, and delete the home directory if this object created it."""
        self.stop()
        if self._own_home:
            shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self) -> Neo4jServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.remove()
