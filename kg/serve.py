"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint over a built graph, on localhost.

The SPARQL work is done by the Oxigraph server (``oxigraph serve-read-only``
from the ``oxigraph`` package, the engine of ``pyoxigraph``), run as a managed
subprocess on a free loopback port over an on-disk store of ``graph.ttl``
(built once with ``oxigraph load`` into ``OUTDIR/.oxigraph/``; see
:func:`kg.query.sparql.store_dir`). Clients talk to a small front in this
module (stdlib ``http.server``, one thread per connection), which forwards
queries to Oxigraph over a bounded pool of keep-alive connections::

    client --HTTP--> front (--host:--port)  --pool--> oxigraph serve-read-only
                     page, checks, limits             127.0.0.1:<free port>, --timeout-s

Why a front and not Oxigraph alone: each point was checked against
Oxigraph 0.5.13 and has a test in ``tests/test_serve.py``.

* **SERVICE.** Oxigraph's server follows ``SERVICE <http://...>`` to any
  host: it POSTed the query to a listener we started (a server-side request
  forgery hole). The front refuses queries with ``SERVICE`` (403) using
  :func:`kg.query.sparql.check_query`, which also refuses updates.
* **Result size.** Oxigraph has no result-size limit. The front buffers at
  most ``max_result_bytes`` of a response and answers 413 beyond that, so
  memory is bounded by ``max_concurrent * max_result_bytes``.
* **Timeouts.** Oxigraph sends ``200 OK`` before evaluating; a query it
  cancels at ``--timeout-s`` ends as a 200 response whose body is the text
  "The SPARQL operation has been cancelled". The front enforces the deadline
  itself and answers 503; Oxigraph's own timeout (one second later, it only
  takes whole seconds) stops the evaluation.
* **Query page.** Oxigraph serves YASGUI at ``/`` from local files, but YASGUI
  calls ``prefix.cc`` (prefix completion) and the LOV API at
  ``lov.linkeddata.es`` (term completion) from the browser, sending what is
  typed to third parties. The front serves its own small page instead (no
  external requests; its Content-Security-Policy forbids them).
* **Graph Store Protocol.** Oxigraph's read-only server answers ``GET /store``
  with the whole dataset, past any limit; the front exposes only
  ``/sparql`` and ``/query``. ``/update`` and SPARQL Update are refused (403).
* **Bursts.** Oxigraph starts a thread per connection. The front caps open
  client connections (``max_connections``, and ``max_per_client`` from one
  address; beyond them, an immediate 503) and queries in flight
  (``max_concurrent``; the rest wait, up to the timeout), and reuses its
  connections to Oxigraph.
* **Slow clients.** A socket timeout bounds each wait for bytes, not a request:
  64 clients sending a byte every 10 s held every connection. The front reads
  each request (line, headers, body) under one deadline (``request_timeout``)
  and drops the connection when it passes; and when the connections are all
  taken, a new one takes the place of the one that has waited longest for its
  request (``evict_after``), so a client that sends its request at once gets
  in even from the address of the slow ones.
* **Memory.** Oxigraph has no memory limit: three ``ORDER BY`` cross products
  took it from 118 MB to 2.25 GB, kept after the 503s. It runs under
  ``RLIMIT_DATA`` = ``max_memory`` (a query needing more makes it abort: the
  query gets 502 and a new Oxigraph is started), and when its resident memory
  stays above half of that, a fresh process takes the next queries while the
  old one is stopped after its queries have had their time (at most two
  processes). If Oxigraph exits, a new one is started (a query that aborts it
  is not sent again); kg serve stops only if a new one cannot start. One Oxigraph quirk remains: with
  ``--timeout-s`` it keeps a sleeping thread (~15 KiB) per query until the
  timeout has passed, so under load its threads number about query rate x
  (timeout + 1 s); they end by themselves (tested: after 600 requests in
  bursts, threads and memory return to their baseline).
* **DNS rebinding.** Bound to loopback, the front answers only requests
  whose ``Host`` is a loopback name, so a web page cannot read the endpoint
  through a hostname that resolves to 127.0.0.1.
* **Accept.** With no ``Accept`` header or ``*/*``, SELECT and ASK answer
  SPARQL JSON and CONSTRUCT and DESCRIBE answer Turtle (Oxigraph alone picks
  N-Quads). Any explicit media type is passed through: JSON, XML, CSV, TSV
  results; Turtle, N-Triples, RDF/XML graphs.

``FROM <file:...>``, ``FROM NAMED`` and the ``default-graph-uri`` /
``named-graph-uri`` parameters only select graphs inside the store; Oxigraph
never reads files or URLs for them (tested). ``LOAD`` is an update (refused).

Examples
--------
>>> Limits().timeout
30.0
>>> accept_header(None)
'application/sparql-results+json, text/turtle;q=0.9'
>>> accept_header("text/csv")
'text/csv'
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import json
import math
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from kg import __version__
from kg.export.files import process_dir
from kg.query import sparql

__all__ = ["Limits", "ServeError", "SparqlServer", "serve", "find_oxigraph", "accept_header"]

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


class ServeError(RuntimeError):
    """The endpoint cannot start or its Oxigraph process failed."""



def _note(message: str) -> None:
    print(f"kg serve: {message}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ oxigraph


def find_oxigraph(binary: str | os.PathLike[str] | None = None) -> str:
    """The ``oxigraph`` server binary: ``binary``, the one next to this Python, or on PATH."""
    if binary is not None:
        path = shutil.which(str(binary))
        if path is None:
            raise ServeError(f"not an executable: {binary}")
        return path
    beside = Path(sys.executable).parent / "oxigraph"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    path = shutil.which("oxigraph")
    if path is None:
        from kg.extras import install_hint

        raise ServeError(f"the Oxigraph server is not installed: {install_hint('sparql')}")
    return path


def oxigraph_version(binary: str) -> str:
    """``0.5.13`` from ``oxigraph --version``."""
    done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30,
                          check=False)
    words = done.stdout.split()
    if done.returncode != 0 or not words:
        raise ServeError(f"{binary} --version failed: {done.stderr.strip()}")
    return words[-1]


def prepare_store(graph: str | os.PathLike[str], binary: str) -> tuple[Path, bool]:
    """An on-disk store of the graph for this Oxigraph, cached; ``(path, temporary)``.

    The store is built with ``oxigraph load`` into a temporary directory and
    renamed into place, so a half-built store is never used. If the build
    directory is not writable, the store goes to a temporary directory that
    the caller removes (``temporary`` is True).
    """
    source = sparql.graph_file(graph)
    target = sparql.store_dir(source, oxigraph_version(binary))
    if target.is_dir():
        return target, False
    try:
        target.parent.mkdir(exist_ok=True)
        tmp = process_dir(target.parent, ".tmp-")  # a killed server's is removed next time
        temporary = False
    except OSError:
        tmp = process_dir(tempfile.gettempdir(), "kg-serve-")
        temporary = True
    command = [binary, "load", "--location", str(tmp), "--file", str(source)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ServeError(f"oxigraph load {source} failed: {done.stderr.strip()}")
    if temporary:
        return tmp, True
    return sparql.publish_store_dir(tmp, target), False


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


# ---------------------------------------------------------------- forwarding


@dataclass(frozen=True)
class _Reply:
    status: int
    content_type: str
    body: bytes


def _text(status: int, message: str) -> _Reply:
    return _Reply(status, "text/plain; charset=utf-8", (message.rstrip("\n") + "\n").encode())


class _Upstream:
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

    def forward(self, form: list[tuple[str, str]], accept: str) -> _Reply:
        limits = self.limits
        deadline = time.monotonic() + limits.timeout
        if not self._slots.acquire(timeout=limits.timeout):
            return _text(503, f"busy: no query slot within {limits.timeout:g} s; try again")
        with self._lock:
            self.in_flight += 1
        try:
            body = urllib.parse.urlencode(form).encode("utf-8")
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": accept}
            while True:
                conn, reused = self._connection()
                try:
                    return self._exchange(conn, body, headers, deadline)
                except _Retry:
                    # A keep-alive connection Oxigraph had closed: send again. Not when the
                    # Oxigraph it led to has died or been replaced: this query may be why.
                    if reused and conn.port == self.port and self.alive():
                        continue
                    return _text(502, "the SPARQL engine stopped while answering (a query needing "
                                      "more memory than the endpoint allows?); try again")
                except _Down:  # nothing was sent: Oxigraph is being restarted
                    if time.monotonic() + 0.1 >= deadline:
                        return _text(503, "the SPARQL engine is restarting; try again")
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

    def _exchange(self, conn, body: bytes, headers: dict, deadline: float) -> _Reply:
        limits, keep = self.limits, False
        try:
            remaining = deadline - time.monotonic()
            conn.timeout = max(remaining, 0.001)
            if conn.sock is not None:
                conn.sock.settimeout(conn.timeout)
            try:
                conn.request("POST", "/query", body, headers)
                response = conn.getresponse()
            except ConnectionRefusedError as error:
                raise _Down from error
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as error:
                raise _Retry from error
            chunks, size = [], 0
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                conn.sock.settimeout(remaining)
                chunk = response.read1(1 << 16)
                if not chunk:
                    response.close()  # read1 leaves a complete fixed-length response open
                    break
                size += len(chunk)
                if size > limits.max_result_bytes:
                    return _text(413, f"result larger than the endpoint's limit of "
                                      f"{limits.max_result_bytes} bytes: add a LIMIT")
                chunks.append(chunk)
            keep = not response.will_close
            ctype = response.getheader("Content-Type", "application/octet-stream")
            return _Reply(response.status, ctype, b"".join(chunks))
        except TimeoutError:
            return _text(503, f"query timed out after {limits.timeout:g} s")
        except (OSError, http.client.HTTPException) as error:
            return _text(502, f"the SPARQL engine failed: {error}")
        finally:
            if keep and conn.port == self.port:  # not to an Oxigraph that was replaced
                self._idle.put(conn)
            else:
                conn.close()


class _Retry(Exception):
    """Oxigraph closed the connection before answering."""


class _Down(Exception):
    """Oxigraph refused the connection: it is not running (being restarted)."""


def accept_header(value: str | None) -> str:
    """The Accept header sent to Oxigraph: ``*/*`` prefers SPARQL JSON and Turtle."""
    default = "application/sparql-results+json, text/turtle;q=0.9"
    if not value or not value.strip():
        return default
    items = []
    for item in value.split(","):
        media, _, params = item.strip().partition(";")
        if media.strip() != "*/*":
            items.append(item.strip())
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(number)
                except ValueError:
                    pass
        items.append(f"application/sparql-results+json;q={q:g}, text/turtle;q={q:g}, */*;q={q / 2:g}")
    return ", ".join(items)


# ---------------------------------------------------------------------- page

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kg SPARQL endpoint</title>
<link rel="stylesheet" href="page.css">
</head>
<body>
<h1>kg SPARQL endpoint</h1>
<p>Read-only SPARQL 1.1 over a kg graph: <code>GET</code> or <code>POST</code>
<code>/sparql</code>. Vocabulary: <code>kgo:</code> &lt;https://w3id.org/kg/ontology#&gt;.</p>
<form id="form" method="get" action="sparql">
<p><label>Example <select id="example"><option value="">(choose a question)</option></select></label></p>
<p id="question"></p>
<textarea id="query" name="query" rows="16" spellcheck="false">SELECT ?type (COUNT(?s) AS ?n)
WHERE { ?s a ?type }
GROUP BY ?type
ORDER BY DESC(?n)</textarea>
<p><label>Results <select id="accept">
<option value="application/sparql-results+json, text/turtle;q=0.9">table (Turtle for CONSTRUCT)</option>
<option value="text/csv">CSV</option>
<option value="text/tab-separated-values">TSV</option>
<option value="application/sparql-results+xml">XML</option>
<option value="application/sparql-results+json">JSON</option>
<option value="text/turtle">Turtle</option>
</select></label>
<button type="submit">Run</button> <span id="status" role="status"></span></p>
</form>
<div id="out"></div>
<script src="page.js"></script>
</body>
</html>
"""

_CSS = """body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em; max-width: 80em; }
textarea { width: 100%; font: 13px/1.35 ui-monospace, monospace; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
pre { background: #f7f7f7; padding: 0.5em; overflow: auto; }
#question { color: #444; font-style: italic; }
"""

_JS = """"use strict";
const form = document.getElementById("form");
const query = document.getElementById("query");
const accept = document.getElementById("accept");
const example = document.getElementById("example");
const question = document.getElementById("question");
const statusLine = document.getElementById("status");
const out = document.getElementById("out");
let examples = [];

function cell(term) {
  if (!term) return "";
  if (term.type === "literal" && term["xml:lang"]) return term.value + "@" + term["xml:lang"];
  return term.value;
}

function showJson(data) {
  if (typeof data.boolean === "boolean") {
    const p = document.createElement("p");
    p.textContent = data.boolean ? "yes" : "no";
    out.append(p);
    return "ASK: " + p.textContent;
  }
  const table = document.createElement("table");
  table.id = "results";
  const head = table.createTHead().insertRow();
  for (const name of data.head.vars) {
    const th = document.createElement("th");
    th.textContent = name;
    head.append(th);
  }
  const body = table.createTBody();
  for (const binding of data.results.bindings) {
    const row = body.insertRow();
    for (const name of data.head.vars) row.insertCell().textContent = cell(binding[name]);
  }
  out.append(table);
  const n = data.results.bindings.length;
  return n + (n === 1 ? " row" : " rows");
}

async function run(event) {
  if (event) event.preventDefault();
  out.replaceChildren();
  statusLine.textContent = "running...";
  const started = performance.now();
  try {
    const response = await fetch("sparql", {
      method: "POST",
      headers: {"Content-Type": "application/x-www-form-urlencoded", "Accept": accept.value},
      body: new URLSearchParams({query: query.value}),
    });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    const type = response.headers.get("Content-Type") || "";
    let summary = response.status + " " + response.statusText;
    if (response.ok && type.startsWith("application/sparql-results+json") &&
        accept.value.includes(", ")) {
      summary = showJson(JSON.parse(text));
    } else {
      const pre = document.createElement("pre");
      pre.textContent = text;
      out.append(pre);
    }
    statusLine.textContent = summary + " in " + ms + " ms";
  } catch (error) {
    statusLine.textContent = "request failed: " + error;
  }
}

function choose(name) {
  const found = examples.find((e) => e.name === name);
  if (!found) return false;
  example.value = name;
  query.value = found.query;
  question.textContent = found.question;
  return true;
}

async function start() {
  form.addEventListener("submit", run);
  example.addEventListener("change", () => choose(example.value));
  try {
    examples = await (await fetch("examples.json")).json();
  } catch (error) {
    examples = [];
  }
  for (const e of examples) {
    const option = document.createElement("option");
    option.value = e.name;
    option.textContent = e.name + ": " + e.question;
    example.append(option);
  }
  const params = new URLSearchParams(window.location.search);
  if (params.get("example") && choose(params.get("example"))) {
    await run();
  } else if (params.get("query")) {
    query.value = params.get("query");
    await run();
  }
}

start();
"""

_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def _static_files() -> dict[str, tuple[str, bytes]]:
    listing = [
        {"name": e.name, "question": e.question, "form": e.form, "query": e.text}
        for e in sparql.examples()
    ]
    return {
        "/": ("text/html; charset=utf-8", _PAGE.encode()),
        "/index.html": ("text/html; charset=utf-8", _PAGE.encode()),
        "/page.js": ("text/javascript; charset=utf-8", _JS.encode()),
        "/page.css": ("text/css; charset=utf-8", _CSS.encode()),
        "/examples.json": ("application/json", json.dumps(listing, ensure_ascii=False).encode()),
    }


# --------------------------------------------------------------------- front

_LOOPBACK_NAMES = {"localhost", "localhost.", "ip6-localhost"}


def _is_loopback(host: str) -> bool:
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


class _Front(ThreadingHTTPServer):
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

    def __init__(self, address, upstream: _Upstream, limits: Limits, quiet: bool) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.upstream, self.limits, self.quiet = upstream, limits, quiet
        self.files = _static_files()
        self.check_host = _is_loopback(address[0])
        self._open = 0
        self._per_client: Counter[str] = Counter()
        self._waiting: dict[socket.socket, tuple[str, float]] = {}  # waiting for a request since
        self._counting = threading.Lock()
        super().__init__(address, _Handler)

    def host_allowed(self, header: str | None) -> bool:
        return not self.check_host or header is None or _is_loopback(_host_name(header))

    def process_request(self, request, client_address):
        client = client_address[0]
        with self._counting:
            refusal = None
            if self._per_client[client] >= self.limits.max_per_client and not self._evict(client):
                refusal = _BUSY_CLIENT
            elif self._open >= self.limits.max_connections and not self._evict(None):
                refusal = _BUSY
            if refusal is None:
                self._open += 1
                self._per_client[client] += 1
                self._waiting[request] = (client, time.monotonic())
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

    def handle_error(self, request, client_address) -> None:
        """A client that went away is no error; anything else is one line, not a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        _note(f"error while answering {client_address[0]}: {type(error).__name__}: {error}")

    def _release(self, request, client: str) -> None:
        with self._counting:
            self._waiting.pop(request, None)
            self._open -= 1
            self._per_client[client] -= 1
            if self._per_client[client] <= 0:
                del self._per_client[client]



def _busy(text: bytes) -> bytes:
    return (
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: " + str(len(text)).encode() + b"\r\nConnection: close\r\n\r\n" + text
    )


_BUSY = _busy(b"too many connections; try again\n")
_BUSY_CLIENT = _busy(b"too many connections from your address; close some and try again\n")


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

_FORM = "application/x-www-form-urlencoded"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = f"kg-serve/{__version__}"
    sys_version = ""
    timeout = 30  # seconds a write to the client may wait (reads: Limits.request_timeout in all)
    server: _Front

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
        self._send(_text(405, f"{self.command} is not allowed: this endpoint is read-only"),
                   extra={"Allow": "GET, HEAD, POST"})

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse_method

    def _route(self, head: bool) -> None:
        if not self.server.host_allowed(self.headers.get("Host")):
            self._discard_body()
            self._send(_text(403, "Host not allowed: use localhost or 127.0.0.1"))
            return
        path, _, query_string = self.path.partition("?")
        if path in ("/sparql", "/query"):
            if head:
                self._send(_text(405, "HEAD is not a SPARQL query"), head=True)
            else:
                self._send(self._sparql(query_string))
        elif path == "/update":
            self._discard_body()
            self._send(_text(403, "updates are refused: this endpoint is read-only"))
        elif self.command in ("GET", "HEAD") and path in self.server.files:
            ctype, body = self.server.files[path]
            extra = {"Content-Security-Policy": _CSP} if ctype.startswith("text/html") else {}
            self._send(_Reply(200, ctype, body), head=head, extra=extra)
        else:
            self._discard_body()
            self._send(_text(404, "not found: the endpoint is /sparql (or /query); a page is at /"),
                       head=head)

    # ---- the SPARQL protocol

    def _sparql(self, query_string: str) -> _Reply:
        limits = self.server.limits
        try:
            params = urllib.parse.parse_qsl(query_string, keep_blank_values=True,
                                            strict_parsing=False, errors="strict")
        except UnicodeDecodeError:
            return _text(400, "the URL is not valid UTF-8")
        if self.command == "POST":
            length = self.headers.get("Content-Length")
            if self.headers.get("Transfer-Encoding") or length is None:
                self.close_connection = True
                return _text(411, "a POST needs a Content-Length")
            try:
                size = int(length)
            except ValueError:
                self.close_connection = True
                return _text(400, "bad Content-Length")
            if size > limits.max_query_bytes or size < 0:
                self.close_connection = True
                return _text(413, f"request body larger than {limits.max_query_bytes} bytes")
            body = self.rfile.read(size)
            ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                return _text(400, "the request body is not valid UTF-8")
            if ctype == _FORM:
                params += urllib.parse.parse_qsl(text, keep_blank_values=True)
            elif ctype == "application/sparql-query":
                params.append(("query", text))
            elif ctype == "application/sparql-update":
                return _text(403, "updates are refused: this endpoint is read-only")
            else:
                return _text(415, "POST a query as application/x-www-form-urlencoded "
                                  "or application/sparql-query")
        names = [name for name, _ in params]
        if "update" in names:
            return _text(403, "updates are refused: this endpoint is read-only")
        queries = [value for name, value in params if name == "query"]
        if len(queries) != 1:
            return _text(400, "give exactly one 'query' parameter (a query page is at /)")
        text = queries[0]
        if len(text.encode("utf-8")) > limits.max_query_bytes:
            return _text(413, f"query larger than {limits.max_query_bytes} bytes")
        try:
            sparql.check_query(text)
        except sparql.QueryRefused as error:
            return _text(403, str(error))
        form = [("query", text)] + [
            (name, value) for name, value in params
            if name in ("default-graph-uri", "named-graph-uri")
        ]
        return self.server.upstream.forward(form, accept_header(self.headers.get("Accept")))

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

    def _send(self, reply: _Reply, head: bool = False, extra: dict | None = None) -> None:
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


# ------------------------------------------------------------------- server


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
        self.oxigraph: OxigraphProcess | None = None
        self.front: _Front | None = None
        self._store: tuple[Path, bool] | None = None
        self._thread: threading.Thread | None = None
        self._watchdog: threading.Thread | None = None
        self.failure: str | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/sparql"

    def start(self) -> SparqlServer:
        try:
            self._store = prepare_store(self.graph, self.binary)
            self.oxigraph = self._new_oxigraph()
            upstream = _Upstream(self.oxigraph.port, self.limits, alive=self._engine_alive)
            try:
                self.front = _Front((self.host, self.port), upstream, self.limits, self.quiet)
            except OSError as error:
                raise ServeError(f"cannot listen on {self.host}:{self.port}: {error}") from error
            self.port = self.front.server_address[1]
        except BaseException:
            self.close()
            raise
        return self

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown` or until Oxigraph exits (then :class:`ServeError`)."""
        assert self.front is not None, "start() first"
        self._watchdog = threading.Thread(target=self._watch, daemon=True)
        self._watchdog.start()
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

    def _engine_alive(self) -> bool:
        engine = self.oxigraph
        return engine is not None and engine.process is not None and engine.process.poll() is None

    def _new_oxigraph(self) -> OxigraphProcess:
        assert self._store is not None
        engine = OxigraphProcess(self.binary, self._store[0], self.limits.timeout, self.limits.max_memory)
        engine.start()
        return engine

    def _watch(self) -> None:
        """Keep one working Oxigraph behind the front (this thread starts the new ones, so it
        lives as long as they do: see ``_child_setup``).

        Oxigraph exits (a query past ``max_memory`` makes it abort): a new one is started,
        every time, since a client can cause this at will; kg serve stops only when a new
        one cannot start.
        Its memory stays above half of ``max_memory`` (memory a heavy query took is not
        given back): a fresh one takes the new queries and the old one is stopped once
        the queries it holds have had their time.
        """
        retiring: list[tuple[OxigraphProcess, float]] = []
        try:
            while self.front is not None and self.oxigraph is not None:
                current = self.oxigraph
                if current.process is None:
                    return
                try:
                    code = current.process.wait(timeout=0.25)
                except subprocess.TimeoutExpired:
                    code = None
                for old, until in list(retiring):
                    if time.monotonic() >= until:
                        old.stop()
                        retiring.remove((old, until))
                if self.front is None:
                    return
                if code is not None:
                    why = f"the Oxigraph server exited with code {code}"
                    if code == -signal.SIGABRT and self.limits.max_memory:
                        why += f" (a query needed more than {self.limits.max_memory // MiB} MiB?)"
                    _note(f"{why}; starting a new one")
                    current.stop()
                    self._replace()
                elif (self.limits.max_memory and not retiring  # at most two processes at a time
                      and rss_bytes(current.process.pid) > self.limits.max_memory // 2):
                    _note(f"Oxigraph holds {rss_bytes(current.process.pid) // MiB} MiB, over half of its "
                          f"{self.limits.max_memory // MiB} MiB; a fresh one takes the next queries")
                    self._replace()
                    retiring.append((current, time.monotonic() + self.limits.timeout + 2))
        except ServeError as error:
            self.failure = str(error)
            if self.front is not None:
                self.front.shutdown()
        finally:
            for old, _ in retiring:
                old.stop()

    def _replace(self) -> None:
        """Start a new Oxigraph and send the next queries to it."""
        engine = self._new_oxigraph()
        front = self.front
        if front is None:  # closed meanwhile
            engine.stop()
            return
        self.oxigraph = engine
        front.upstream.retarget(engine.port)

    def shutdown(self) -> None:
        if self.front is not None:
            self.front.shutdown()

    def close(self) -> None:
        front, self.front = self.front, None
        if front is not None:
            if self._thread is not None:
                front.shutdown()
                self._thread.join(timeout=10)
            front.server_close()
            front.upstream.close()
        if self._watchdog is not None and self._watchdog is not threading.current_thread():
            self._watchdog.join(timeout=70)  # it may be starting an Oxigraph (up to 60 s)
        oxigraph, self.oxigraph = self.oxigraph, None
        if oxigraph is not None:
            oxigraph.stop()
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
