"""Benchmark the Neo4j exports of a large build: graph.json read whole into networkx (the
path before issue 18's streaming) against graph.json read one node or edge at a time.

For each ``--papers`` N it uses the synthetic build ``WORKDIR/out-N`` that
``benchmarks/scale_bench.py`` writes (and runs that first when the build is not there),
then, each in a fresh process:

* **old** bulk: ``BuildDir.read_graph()`` (the whole graph in networkx), then the bulk
  writer as it was before streaming (``tests/neo4j_bulk_reference.py``: every row held by
  ``to_rows``, each file written from them);
* **new** bulk: ``kg export neo4j-bulk OUT -o DIR -q``, the command itself;

and checks that both directories hold the same files byte for byte, and that their rows are
the build's nodes and edges (``summary.json``). It prints each run's
wall time and peak RSS (``ru_maxrss``), and the RSS once the modules are imported. The old
path runs up to ``--old-max`` papers (default 100,000).

With ``--bolt N,...`` it also loads those builds into a real Neo4j 5 (a fresh server for
each run, from ``tests/neo4j_server``): old, ``write_neo4j(to_rows(read_graph()))``, the
graph and all its rows held as before (the batching code is today's); new, ``kg export
neo4j``; and compares the node and relationship counts by label and type.

Usage::

    nice python benchmarks/neo4j_export_bench.py --papers 10000,100000 --workdir /tmp/kg-scale
    nice python benchmarks/neo4j_export_bench.py --papers 10000 --bolt 10000 --json bench.json
    nice python benchmarks/neo4j_export_bench.py --papers 1000000 --workdir /tmp/kg-scale
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _rss_mb() -> float:
    """The process's resident memory now (Linux), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def child(kind: str, path: str, build: str, target: str) -> dict:
    """Runs in a fresh process: one export, its time and its memory."""
    sys.path.insert(0, str(ROOT / "tests"))  # the old writer, kept as the tests' oracle
    from neo4j_bulk_reference import write_bulk_csv_held

    import kg.node_link  # noqa: F401  (every path's modules imported before the baseline)
    from kg.builddir import BuildDir
    from kg.cli import main
    from kg.export.neo4j import connect, to_rows, write_neo4j

    if kind == "bolt":
        import neo4j  # noqa: F401  (the driver alone is about 60 MB)
    baseline = _rss_mb()
    start = time.perf_counter()
    if kind == "bulk" and path == "old":
        write_bulk_csv_held(BuildDir(build).read_graph(), target)
    elif kind == "bulk":
        main(["export", "neo4j-bulk", build, "-o", target, "-q"], standalone_mode=False)
    elif path == "old":
        with connect(target, "neo4j", os.environ["NEO4J_PASSWORD"]) as driver:
            write_neo4j(to_rows(BuildDir(build).read_graph()), driver, progress=False)
    else:
        main(["export", "neo4j", build, "--uri", target, "-q"], standalone_mode=False)
    return {"seconds": round(time.perf_counter() - start, 1), "rss_after_imports_mb": baseline,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def _run_child(kind: str, path: str, build: Path, target: str, env: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", kind, path, str(build), target],
                          check=True, capture_output=True, text=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _digests(directory: Path) -> dict[str, str]:
    out = {}
    for path in sorted(directory.iterdir()):
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        out[path.name] = digest.hexdigest()
    return out


def ensure_build(papers: int, workdir: Path) -> Path:
    """``WORKDIR/out-N`` of scale_bench.py, built first when it is missing."""
    out = workdir / f"out-{papers}"
    if not (out / "summary.json").is_file():
        subprocess.run([sys.executable, str(HERE / "scale_bench.py"), "--papers", str(papers),
                        "--workdir", str(workdir)], check=True)
    return out


def bench_bulk(build: Path, workdir: Path, old: bool) -> dict:
    from kg.export.neo4j_bulk import read_bulk_counts

    result: dict = {"graph_json_mb": round((build / "graph.json").stat().st_size / 2**20, 1)}
    for path in ("old", "new") if old else ("new",):
        target = workdir / f"bulk-{path}-{build.name}"
        shutil.rmtree(target, ignore_errors=True)
        result[path] = _run_child("bulk", path, build, str(target))
        print(f"  bulk {path}: {result[path]}", flush=True)
    written = workdir / f"bulk-new-{build.name}"
    summary = json.loads((build / "summary.json").read_text())
    result["rows"] = sum(read_bulk_counts(written).values())
    result["rows_are_the_graph"] = result["rows"] == summary["nodes"] + summary["edges"]
    result["files"] = len(list(written.iterdir()))
    result["csv_mb"] = round(sum(p.stat().st_size for p in written.iterdir()) / 2**20, 1)
    if old:
        result["identical"] = _digests(workdir / f"bulk-old-{build.name}") == _digests(written)
    for path in ("old", "new"):
        shutil.rmtree(workdir / f"bulk-{path}-{build.name}", ignore_errors=True)
    return result


def bench_bolt(build: Path, workdir: Path) -> dict:
    sys.path.insert(0, str(ROOT / "tests"))
    from neo4j_server import Neo4jServer

    result: dict = {}
    counts = {}
    for path in ("old", "new"):
        home = workdir / f"neo4j-{path}-{build.name}"
        shutil.rmtree(home, ignore_errors=True)
        with Neo4jServer(home, heap="2g", pagecache="1g") as server:
            env = {**os.environ, "NEO4J_PASSWORD": server.password}
            result[path] = _run_child("bolt", path, build, server.uri, env)
            driver = server.driver()
            labels = driver.execute_query("MATCH (n) RETURN labels(n)[0] AS l, count(*) AS n").records
            types = driver.execute_query("MATCH ()-[r]->() RETURN type(r) AS t, count(*) AS n").records
            counts[path] = ({r["l"]: r["n"] for r in labels}, {r["t"]: r["n"] for r in types})
            driver.close()
        shutil.rmtree(home, ignore_errors=True)
        print(f"  bolt {path}: {result[path]}", flush=True)
    result["nodes"] = sum(counts["new"][0].values())
    result["relationships"] = sum(counts["new"][1].values())
    result["same_counts"] = counts["old"] == counts["new"]
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", default="10000,100000", help="comma-separated build sizes")
    parser.add_argument("--bolt", default="", help="sizes to load into Neo4j too (comma-separated)")
    parser.add_argument("--old-max", type=int, default=100_000,
                        help="run the old path up to this many papers (a million papers' networkx graph "
                             "does not fit in 24 GB)")
    parser.add_argument("--workdir", type=Path, default=Path("kg-scale"), help="where scale_bench.py's builds are")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    bolt = {int(n) for n in args.bolt.split(",") if n}
    results = {}
    for papers in [int(n) for n in args.papers.split(",")]:
        build = ensure_build(papers, args.workdir)
        print(f"{papers} papers ({build}):", flush=True)
        results[papers] = {"bulk": bench_bulk(build, args.workdir, papers <= args.old_max)}
        if papers in bolt:
            results[papers]["bolt"] = bench_bolt(build, args.workdir)
    print(json.dumps(results, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
