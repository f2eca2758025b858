"""Memory and availability of ``kg serve`` under the attacks of issue 17, with and without its limits.

Memory: three concurrent ``ORDER BY`` cross products (``?a ?b ?c . ?d ?e ?f``) against
the example graph; prints Oxigraph's resident memory before, at its peak (every
Oxigraph process of the endpoint, sampled every 20 ms) and a few seconds after,
for each ``--max-memory-mb`` (0 is no limit: Oxigraph as it was).

Slow clients: 64 clients send a request one byte a second (from 127.0.0.3,
reconnecting when dropped; or from 127.0.0.1, the address of the real client,
holding their connections); a real client asks ``ASK {}`` twice a second (from
127.0.0.2, or 127.0.0.1); prints the share answered 200, with the default limits
(whole-request deadline, per-address cap, slow connections making room for new
ones) and without them (no cap, no eviction, a deadline no client reaches).

Usage::

    python benchmarks/serve_limits_bench.py                 # builds examples/ into a temporary dir
    python benchmarks/serve_limits_bench.py --graph out --memory 0,2048,512
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from kg.query.serve import Limits, SparqlServer
from kg.query.serve.process import rss_bytes

ROOT = Path(__file__).resolve().parents[1]
HEAVY = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f ?a"
MiB = 1024 * 1024


def status(url: str, query: str, source: str | None = None) -> int:
    if source is None:
        try:
            with urllib.request.urlopen(f"{url}?{urllib.parse.urlencode({'query': query})}", timeout=60) as r:
                r.read()
                return r.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            return 0
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", int(url.split(":")[2].split("/")[0]), timeout=10,
                                      source_address=(source, 0))
    try:
        conn.request("GET", "/sparql?" + urllib.parse.urlencode({"query": query}))
        return conn.getresponse().status
    except OSError:
        return 0
    finally:
        conn.close()


def children() -> list[int]:
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            found += [int(pid) for pid in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def memory_run(graph: Path, max_mb: int, timeout: float) -> dict:
    limits = Limits(timeout=timeout, max_memory=max_mb * MiB)
    with SparqlServer(graph, port=0, limits=limits, quiet=True) as server:
        server.serve_in_thread()
        before = rss_bytes(server.oxigraph.process.pid)
        peaks: dict[int, int] = {}
        stop = threading.Event()

        def watch():
            while not stop.is_set():
                for pid in children():
                    peaks[pid] = max(peaks.get(pid, 0), rss_bytes(pid))
                time.sleep(0.02)

        watcher = threading.Thread(target=watch)
        watcher.start()
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            statuses = list(pool.map(lambda _: status(server.url, HEAVY), range(3)))
        seconds = time.monotonic() - started
        after_query = status(server.url, "ASK {}")
        time.sleep(timeout + 3)
        stop.set()
        watcher.join()
        return {"before": before, "peak": max(peaks.values()), "after": rss_bytes(server.oxigraph.process.pid),
                "statuses": statuses, "seconds": seconds, "next": after_query, "processes": len(peaks)}


def slow_client(port: int, stop: threading.Event, source: str, reconnect: bool) -> None:
    request = b"GET /sparql?query=ASK%7B%7D HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + b"x" * 100
    while not stop.is_set():
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        except OSError:
            time.sleep(0.1)
            continue
        try:
            for byte in request:
                if stop.is_set():
                    break
                sock.sendall(bytes([byte]))
                time.sleep(1.0)
        except OSError:
            pass
        finally:
            sock.close()
        if not reconnect:
            return


def slowloris_run(graph: Path, limited: bool, seconds: float, same_address: bool) -> float:
    limits = (Limits() if limited
              else Limits(request_timeout=10_000, max_per_client=10_000, evict_after=float("inf")))
    attacker, client = ("127.0.0.1", "127.0.0.1") if same_address else ("127.0.0.3", "127.0.0.2")
    with SparqlServer(graph, port=0, limits=limits, quiet=True) as server:
        server.serve_in_thread()
        stop = threading.Event()
        attackers = [threading.Thread(target=slow_client, args=(server.port, stop, attacker, not same_address))
                     for _ in range(64)]
        for thread in attackers:
            thread.start()
        time.sleep(1.5)
        answered = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            answered.append(status(server.url, "ASK {}", source=client) == 200)
            time.sleep(0.5)
        stop.set()
        for thread in attackers:
            thread.join()
        return sum(answered) / len(answered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", type=Path, help="a kg build directory (default: build examples/)")
    parser.add_argument("--memory", default="0,2048,512", help="--max-memory-mb values to compare")
    parser.add_argument("--timeout", type=float, default=10.0, help="query timeout of the endpoint")
    parser.add_argument("--slow-seconds", type=float, default=10.0, help="length of the slow-client run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        graph = args.graph
        if graph is None:
            from kg.build import build

            graph = Path(tmp) / "out"
            build([ROOT / "examples" / "iclr2025"], graph, cache=False)
        print("memory: 3 concurrent ORDER BY cross products")
        print(f"{'max-memory-mb':>14} {'before MiB':>10} {'peak MiB':>9} {'after MiB':>9}  statuses"
              f"        next query  Oxigraph processes")
        for max_mb in (int(v) for v in args.memory.split(",") if v):
            r = memory_run(graph, max_mb, args.timeout)
            print(f"{max_mb or 'none':>14} {r['before'] / MiB:>10.0f} {r['peak'] / MiB:>9.0f} "
                  f"{r['after'] / MiB:>9.0f}  {r['statuses']!s:15} {r['next']:>10}  {r['processes']}")
        print("\nslow clients: 64 sending one byte a second; a real client asks twice a second")
        for same, what in ((False, "from another address, reconnecting"), (True, "from the client's address, holding")):
            without = slowloris_run(graph, False, args.slow_seconds, same)
            with_limits = slowloris_run(graph, True, args.slow_seconds, same)
            print(f"slow clients {what}: answered without the limits {without:.0%}, with them {with_limits:.0%}")


if __name__ == "__main__":
    main()
