"""Benchmark ``kg build --engine dask`` on a local Dask cluster of 1 and of 2 workers, with the
extraction cache filled beforehand, so that the run is resolution, assembly and writing.

The corpus is the OpenReview abstracts (``../shared/data/openreview/*.jsonl``, 5,812
abstracts) unless ``--corpus`` names other JSON Lines files, or ``--synthetic N`` asks for
N synthetic papers with synthetic extraction records (``benchmarks/scale_bench.py``).
Real abstracts are extracted once, by a local build that fills the cache (not timed).

Then, ``--repeat`` times, interleaved so that each side sees the same load: a local build,
a build on a cluster of 1 worker, a build on a cluster of 2 workers, each in a fresh process
(and a fresh cluster of worker processes, one thread each) reading the same cache. Workers
import kg before the clock starts (a cluster that has run a build before has), unless
``--cold``. It prints each run's wall time (the build only; starting the cluster and the
import are shown apart), its stages (and the client's waits inside resolve+assemble), the
peak RSS of the client and of the biggest worker, and whether every file equals the local
build's; then min and median of the 1-worker / 2-worker time ratio (above 1: 2 workers are
faster) and of each against the local build.

Usage::

    python benchmarks/cluster_bench.py --workdir /tmp/kg-cluster --repeat 3 [--json cluster.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPENREVIEW = HERE.parent.parent / "shared" / "data" / "openreview"
FILES = ("papers.jsonl", "manifest.jsonl", "graph.json", "graph.graphml", "graph.ttl", "results.csv")
SIDES = ("local", "1 worker", "2 workers")


def prepare(args) -> tuple[list[Path], Path]:
    """The corpus files and an extraction cache holding a record for every paper."""
    cache = args.workdir / "cache.sqlite"
    if args.synthetic:
        sys.path.insert(0, str(HERE))
        from scale_bench import prepare as synthetic

        corpus, out = synthetic(args.synthetic, args.workdir)
        cache = out / ".kg-cache" / "extractions.sqlite"
        return [corpus], cache
    corpus = args.corpus or sorted(OPENREVIEW.glob("*.jsonl"))
    if not cache.exists():
        from kg.build import build

        start = time.perf_counter()
        report = build(corpus, args.workdir / "fill", cache=cache)
        print(f"extracted {report.papers_built} abstracts into the cache in {time.perf_counter() - start:.0f} s",
              flush=True)
    return corpus, cache


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _import_kg() -> None:
    import kg.build
    import kg.cluster  # noqa: F401


def child(side: str, corpus: list[Path], cache: Path, out: Path, cold: bool) -> dict:
    """Runs in a fresh process: one build, its stages, memory and file digests."""
    from kg.build import build

    cluster_seconds, import_seconds, workers_rss = 0.0, 0.0, []
    if side == "local":
        start = time.perf_counter()
        report = build(corpus, out, cache=cache)
        seconds = time.perf_counter() - start
    else:
        from dask.distributed import Client, LocalCluster

        start = time.perf_counter()
        with LocalCluster(n_workers=int(side[0]), threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            cluster_seconds = time.perf_counter() - start
            if not cold:  # as on a cluster that has run a build before: kg imported on every worker
                start = time.perf_counter()
                client.run(_import_kg)
                import_seconds = time.perf_counter() - start
            start = time.perf_counter()
            report = build(corpus, out, cache=cache, engine="dask", scheduler=cluster.scheduler_address)
            seconds = time.perf_counter() - start
            workers_rss = sorted(client.run(_peak_rss_mb).values())
    return {
        "side": side, "seconds": round(seconds, 2), "cluster_start_s": round(cluster_seconds, 2),
        "workers_import_kg_s": round(import_seconds, 2),
        "papers": report.papers_built, "from_cache": report.cache_hits, "nodes": report.nodes,
        "edges": report.edges, "timings": report.timings, "client_peak_rss_mb": _peak_rss_mb(),
        "worker_peak_rss_mb": workers_rss,
        "digests": {name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in FILES},
    }


def run(side: str, corpus: list[Path], cache: Path, out: Path, cold: bool) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", side, str(cold), str(cache), str(out),
                           *map(str, corpus)], check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _ratios(values: list[float]) -> str:
    return f"min {min(values):.2f}, median {statistics.median(values):.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, default=Path("kg-cluster-bench"))
    parser.add_argument("--corpus", type=Path, nargs="+", help="JSON Lines files (default: the OpenReview abstracts)")
    parser.add_argument("--synthetic", type=int, help="N synthetic papers instead of real abstracts")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold", action="store_true",
                        help="time the workers' first import of kg (4-8 s here) as part of the build")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        side, cold, cache, out, *corpus = args.child
        print(json.dumps(child(side, [Path(c) for c in corpus], Path(cache), Path(out), cold == "True")))
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    corpus, cache = prepare(args)
    print(f"load average before: {os.getloadavg()[0]:.1f} (on {os.cpu_count()} cores)", flush=True)
    runs: list[dict] = []
    for repeat in range(args.repeat):
        for side in SIDES:
            result = run(side, corpus, cache, args.workdir / f"out-{side.replace(' ', '-')}", args.cold)
            result["repeat"] = repeat
            result["load_average"] = round(os.getloadavg()[0], 1)
            runs.append(result)
            stages = ", ".join(f"{k} {v:.1f}" for k, v in result["timings"].items() if ":" not in k)
            print(f"[{repeat}] {side:9} {result['seconds']:7.1f} s (cluster start {result['cluster_start_s']:.1f} s, "
                  f"kg imported in {result['workers_import_kg_s']:.1f} s) | {stages} | client "
                  f"{result['client_peak_rss_mb']:.0f} MB, workers {result['worker_peak_rss_mb']} MB | load "
                  f"{result['load_average']}", flush=True)
            inside = ", ".join(f"{k.split(': ')[1]} {v:.1f}" for k, v in result["timings"].items() if ": " in k)
            if inside:
                print(f"    resolve+assemble: {inside}", flush=True)
    local = {r["repeat"]: r for r in runs if r["side"] == "local"}
    for r in runs:
        r["same_files_as_local"] = r["digests"] == local[r["repeat"]]["digests"]
    by = {side: [r["seconds"] for r in runs if r["side"] == side] for side in SIDES}
    scaling = [one / two for one, two in zip(by["1 worker"], by["2 workers"])]
    summary = {
        "papers": runs[0]["papers"], "nodes": runs[0]["nodes"], "edges": runs[0]["edges"],
        "seconds": by, "one_over_two_workers": [round(x, 3) for x in scaling],
        "one_worker_over_local": [round(c / loc, 3) for c, loc in zip(by["1 worker"], by["local"])],
        "two_workers_over_local": [round(c / loc, 3) for c, loc in zip(by["2 workers"], by["local"])],
        "every_file_equal": all(r["same_files_as_local"] for r in runs),
        "load_average_after": round(os.getloadavg()[0], 1),
    }
    print(f"{summary['papers']} papers, {summary['nodes']} nodes, {summary['edges']} edges; every file equal "
          f"to the local build's: {summary['every_file_equal']}")
    for side in SIDES:
        print(f"{side:9} s: {', '.join(f'{s:.1f}' for s in by[side])}")
    print(f"1 worker / 2 workers (speed-up): {_ratios(scaling)}")
    print(f"1 worker / local: {_ratios(summary['one_worker_over_local'])}; "
          f"2 workers / local: {_ratios(summary['two_workers_over_local'])}")
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
