"""Helpers shared by the SPARQL tests (embedded store, endpoint, second stores).

Not a conftest (``tests/query/conftest.py`` belongs to the Cypher tests): the
test modules import it by path, once, as ``kg_sparql_test_fixtures``.

* :func:`example_build` builds ``examples/iclr2025`` with ``kg build`` once and
  keeps it in pytest's cache directory under a key hashed from the examples,
  every file of the ``kg`` package and the Python, spaCy and Oxigraph
  versions, so a changed extractor rebuilds it and an unchanged one reuses it
  (across test modules and runs).
* :func:`start_kg_serve` runs the real command (``python -m kg.cli.serve``) on
  a free loopback port and reads its URL from stdout.
* :func:`start_virtuoso` starts Debian's ``virtuoso-t`` with a temporary
  ``virtuoso.ini`` on free loopback ports.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "iclr2025"
KG_PACKAGE = ROOT / "kg"
SHARED_DATA = [ROOT.parent / "shared" / "data", ROOT.parents[1] / "shared" / "data", Path("/work/shared/data")]
#: The 2,602 ICML 2024 abstracts of shared/data (not in the repository), or None.
ICML2024 = next(
    (d / "openreview" / "icml2024.jsonl" for d in SHARED_DATA if (d / "openreview" / "icml2024.jsonl").is_file()),
    None,
)
#: What ``kg build`` writes by default: the files users open in other tools.
BUILD_FILES = ("graph.json", "graph.graphml", "graph.ttl", "papers.jsonl", "manifest.jsonl", "summary.json")


# ------------------------------------------------------------- example graph


def _build_key() -> str:
    import pyoxigraph
    import spacy

    digest = hashlib.sha256()
    digest.update(f"{sys.version} {spacy.__version__} {pyoxigraph.__version__}".encode())
    inputs = [*EXAMPLES.rglob("*"), *KG_PACKAGE.rglob("*.py"), *(KG_PACKAGE / "extract").rglob("*")]
    for path in sorted(set(inputs)):
        relative = path.relative_to(ROOT)
        if (
            path.is_file()
            and "__pycache__" not in path.parts
            and relative.parts[:2] not in (("kg", "query"), ("kg", "cli"), ("kg", "viz"))
        ):
            digest.update(str(relative).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def example_build(cache_root: Path) -> Path:
    """The ``kg build`` output directory of ``examples/iclr2025`` (built at most once per key)."""
    return cached_build(cache_root, [EXAMPLES], _build_key())


def icml2024_build(cache_root: Path) -> Path:
    """The ``kg build`` output directory of ICML 2024's abstracts (:data:`ICML2024`; built at
    most once per key: the corpus and the kg sources)."""
    assert ICML2024 is not None, "skip when shared/data/openreview/icml2024.jsonl is absent"
    key = hashlib.sha256(ICML2024.read_bytes() + _build_key().encode()).hexdigest()[:16]
    return cached_build(cache_root, [ICML2024], key)


def cached_build(cache_root: Path, inputs: list[Path], key: str) -> Path:
    """``kg build INPUTS`` with every default output, in ``cache_root/key`` (older keys removed)."""
    target = cache_root / key
    if all((target / name).is_file() for name in BUILD_FILES):
        return target
    cache_root.mkdir(parents=True, exist_ok=True)
    for old in cache_root.iterdir():
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cache_root))
    from kg.build import build

    build(inputs, tmp, cache=False)
    os.replace(tmp, target)
    return target


def read_graph(outdir: Path) -> nx.MultiDiGraph:
    """The node-link ``graph.json`` of a build, as the MultiDiGraph of docs/graph-schema.md."""
    from kg.builddir import BuildDir

    return BuildDir(outdir).read_graph()


# ------------------------------------------------------------------ processes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc/<pid>/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise ValueError(f"no VmRSS for {pid}")


def children(pid: int) -> list[int]:
    """Direct child processes of ``pid``."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "children").read_text().split()
        except OSError:  # a thread that ended meanwhile
            continue
        found.extend(int(child) for child in text)
    return found


@dataclass
class KgServe:
    """A running ``kg serve``: its process, URL, log file and Oxigraph child."""

    process: subprocess.Popen
    url: str
    log: Path
    lines: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return self.url.removesuffix("sparql")

    @property
    def oxigraph_pid(self) -> int:
        kids = children(self.process.pid)
        assert len(kids) == 1, kids
        return kids[0]

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        return self.process.returncode


def start_kg_serve(graph: Path, log_dir: Path, *args: str, timeout: float = 60) -> KgServe:
    """``python -m kg.cli.serve BUILD_DIR --port 0 ARGS``; waits for its first line (the URL)."""
    log = log_dir / f"kg-serve-{time.monotonic_ns()}.log"
    command = [sys.executable, "-m", "kg.cli.serve", str(graph), "--port", "0", *args]
    with open(log, "w") as err:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True)
    deadline = time.monotonic() + timeout
    first = process.stdout.readline()  # blocks until kg serve is ready or exits
    if not first.startswith("kg serve: SPARQL endpoint at ") or time.monotonic() > deadline:
        process.kill()
        raise RuntimeError(f"kg serve did not start: {first!r} {log.read_text()}")
    lines = [first] + [process.stdout.readline() for _ in range(2)]
    return KgServe(process, first.split()[-1], log, lines)


def http(url: str, *, data: bytes | None = None, headers: dict | None = None,
         method: str | None = None, timeout: float = 30):
    """(status, headers, body) of one request; HTTP errors are returned, not raised."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def get_query(endpoint: str, text: str, accept: str | None = None, **params: str):
    query = urllib.parse.urlencode({"query": text, **params})
    return http(f"{endpoint}?{query}", headers={"Accept": accept} if accept else {})


# ------------------------------------------------------------------- virtuoso

VIRTUOSO = shutil.which("virtuoso-t")
ISQL = shutil.which("isql-vt") or shutil.which("isql")


@dataclass
class Virtuoso:
    process: subprocess.Popen
    directory: Path
    sql_port: int
    http_port: int

    @property
    def sparql_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/sparql"

    def isql(self, statements: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [ISQL, str(self.sql_port), "dba", "dba", f"exec={statements}"],
            capture_output=True, text=True, timeout=timeout, check=False,
        )
        if done.returncode != 0 or "*** Error" in done.stdout + done.stderr:
            raise RuntimeError(f"isql failed: {done.stdout}\n{done.stderr}")
        return done.stdout

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_virtuoso(directory: Path, timeout: float = 90) -> Virtuoso:
    """``virtuoso-t -f`` on a fresh database in ``directory`` (SQL and HTTP on free ports)."""
    sql_port, http_port = free_port(), free_port()
    ini = directory / "virtuoso.ini"
    ini.write_text(
        f"""[Database]
DatabaseFile = {directory}/virtuoso.db
ErrorLogFile = {directory}/virtuoso.log
LockFile = {directory}/virtuoso.lck
TransactionFile = {directory}/virtuoso.trx
xa_persistent_file = {directory}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {directory}/virtuoso-temp.db
TransactionFile = {directory}/virtuoso-temp.trx
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:{sql_port}
NumberOfBuffers = 2000
MaxDirtyBuffers = 1200
DirsAllowed = ., {directory}
CheckpointInterval = 0

[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerThreads = 4

[SPARQL]
ResultSetMaxRows = 100000
MaxQueryExecutionTime = 60
""",
        encoding="utf-8",
    )
    with open(directory / "stdout.log", "w") as out:
        process = subprocess.Popen([VIRTUOSO, "-f", "-c", str(ini)], cwd=directory,
                                   stdout=out, stderr=subprocess.STDOUT)
    server = Virtuoso(process, directory, sql_port, http_port)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("virtuoso-t exited: " + (directory / "virtuoso.log").read_text())
        done = subprocess.run([ISQL, str(sql_port), "dba", "dba", "exec=select 1;"],
                              capture_output=True, text=True, check=False)
        if done.returncode == 0:
            return server
        time.sleep(0.2)
    server.stop()
    raise RuntimeError("virtuoso-t did not come up: " + (directory / "virtuoso.log").read_text())
