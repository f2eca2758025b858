"""Benchmark kg's RDF export and SPARQL endpoint on a synthetic graph.

Run it by hand; it writes nothing into the repository unless ``--out`` is given::

    python benchmarks/rdf_bench.py --triples 1000000
    python benchmarks/rdf_bench.py --triples 200000 --rounds 10 --out bench.json

What it measures, in one run on one graph:

1. **Serialisation**: ``kg.export.rdf.write_turtle`` and ``write_ntriples``
   against rdflib's own Turtle and N-Triples serialisers (``kg.export.rdf.to_rdf(graph)
   .serialize(format="turtle")``, ``format="nt"``), as triples per second and the
   ratio rdflib/kg, like for like. Building the rdflib graph is timed separately from serialising it.
   ``--skip-rdflib`` leaves rdflib out (it takes minutes on a million triples).
2. **Loading**: ``kg.query.sparql`` loading graph.ttl into an embedded
   pyoxigraph store, and opening its on-disk cache.
3. **Endpoint latency**: ``kg serve`` (Oxigraph behind kg's front) is started
   cold (its store built by ``oxigraph load``) on a free loopback port on the
   synthetic graph; every shipped example query is sent ``--rounds`` times
   over HTTP, one after another (after one warm-up), and p50 / p95 are printed
   per query.

The synthetic graph follows ``docs/graph-schema.md``: papers with titles,
abstracts (entity names at the recorded offsets), authors, years, venues,
DOIs / arXiv ids; each paper proposes a new method, mentions Zipf-distributed
datasets, models, metrics and tasks (the examples' names, such as ``CIFAR-10``
and ``GPT-4o``, among the most frequent), states relations with evidence,
reports a result and, for some, links code. About 100 triples per paper.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import networkx as nx

from kg.assemble import relation_attributes
from kg.schema import edge_attributes, node_attributes

TRIPLES_PER_PAPER = 100  # measured: ~100 triples per synthetic paper; refined by a dry count

VENUES = ["ICLR", "NeurIPS", "ICML", "ACL", "EMNLP", "CVPR", "AAAI", "KDD"]
DATASETS = [
    "CIFAR-10", "ImageNet", "GSM8K", "MATH", "MNIST", "TriviaQA", "MMLU", "HumanEval",
    "SQuAD", "COCO", "FFHQ", "CelebA", "PopQA", "MuSiQue", "ARC-Challenge", "WikiText-103",
]
MODELS = ["GPT-4o", "GPT-4", "Llama-3-8B", "LLaMA-2", "Mistral", "Claude 3", "OPT", "T5", "BERT"]
METRICS = ["accuracy", "F1", "latency", "throughput", "perplexity", "BLEU", "FID", "speedup"]
TASKS = [
    "question answering", "image generation", "language modeling", "code generation",
    "text generation", "node classification", "link prediction", "image classification",
]
METHODS = ["PRISM", "Speculative RAG", "DDN", "AFLOW"]
CATALOGUE = {
    "CIFAR-10": "pwc:dataset:cifar-10", "ImageNet": "pwc:dataset:imagenet",
    "GSM8K": "pwc:dataset:gsm-8k", "MNIST": "pwc:dataset:mnist", "GPT-4o": "model:gpt-4o",
    "GPT-4": "model:gpt-4", "accuracy": "pwc:metric:accuracy",
    "question answering": "pwc:task:question-answering",
}


def _pool(names: list[str], kind: str, size: int) -> list[str]:
    """The named entities first, then generated ones: ``Dataset-17``."""
    return names + [f"{kind}-{i}" for i in range(size - len(names))]


def _zipf(rng: random.Random, pool: list[str], s: float = 1.1) -> str:
    # inverse-CDF sampling of a truncated Zipf law: index 0 the most frequent
    n = len(pool)
    u = rng.random()
    index = int((n ** (1 - s) * u + (1 - u)) ** (1 / (1 - s))) - 1 if s != 1 else 0
    return pool[min(max(index, 0), n - 1)]


def _key(name: str) -> str:
    from kg.ids import name_key

    return name_key(name)


def synthetic_graph(papers: int, seed: int = 0) -> nx.MultiDiGraph:
    """A graph of ``papers`` synthetic papers in the shape of :mod:`kg.schema`."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    pools = {
        "Dataset": _pool(DATASETS, "Dataset", max(len(DATASETS), papers // 5)),
        "Model": _pool(MODELS, "Model", max(len(MODELS), papers // 10)),
        "Metric": _pool(METRICS, "Metric", max(len(METRICS), papers // 30)),
        "Task": _pool(TASKS, "Task", max(len(TASKS), papers // 20)),
    }
    authors = [f"Author {i}" for i in range(max(10, papers // 2))]
    entities: dict[str, dict] = {}
    papers_of: dict[str, set[str]] = {}
    mentions_of: Counter = Counter()
    relations: dict[tuple[str, str, str], list[dict]] = {}

    def entity(name: str, label: str) -> str:
        eid = "entity:" + _key(name)
        if eid not in entities:
            entities[eid] = node_attributes(label, name, aliases=[], catalogue_id=CATALOGUE.get(name),
                                            generic=False, proposed_by=[])
        return eid

    for i in range(papers):
        digest = hashlib.sha256(f"synthetic {seed} {i}".encode()).hexdigest()
        roll = rng.random()
        if roll < 0.3:
            pid, doi, arxiv = f"doi:10.5555/syn.{i}", f"10.5555/syn.{i}", None
        elif roll < 0.6:
            pid, doi, arxiv = f"arxiv:{2000 + i // 100000}.{i % 100000:05d}", None, None
            arxiv = pid[6:]
        else:
            pid, doi, arxiv = f"paper:{digest[:16]}", None, None
        method = METHODS[i] if i < len(METHODS) else f"Method{i}"
        picks = [
            ("Dataset", _zipf(rng, pools["Dataset"])),
            ("Dataset", _zipf(rng, pools["Dataset"])),
            ("Model", _zipf(rng, pools["Model"])),
            ("Metric", _zipf(rng, pools["Metric"])),
            ("Task", _zipf(rng, pools["Task"])),
        ]
        if i < len(METHODS):  # the examples' method names, on the examples' datasets
            picks[:2] = [("Dataset", "CIFAR-10"), ("Dataset", ("MNIST", "GSM8K")[i % 2])]
        picks = list(dict.fromkeys(picks))
        # the abstract names every entity; offsets point at them
        parts, spans = [f"We propose {method}, a method for "], {}
        text = parts[0]
        for label, name in picks:
            start = len(text)
            text += name
            spans.setdefault((label, name), (start, len(text)))
            text += ", evaluated on " if label == "Task" else " and "
        text += f"it reaches {rng.randint(50, 99)}.{rng.randint(0, 9)}% {picks[-2][1] if len(picks) > 1 else 'accuracy'}."
        value = text[text.rindex("reaches ") + 8 : text.rindex("%") + 1]
        year = rng.randint(2018, 2025)
        venue = rng.choice(VENUES)
        title = f"{method}: {digest[16:28]} for {picks[-1][1]}"
        g.add_node(pid, **node_attributes(
            "Paper", title, title=title, abstract=text, year=year, venue=venue, doi=doi, arxiv_id=arxiv,
            authors=sorted(rng.sample(authors, 3)), source_path="synthetic", source_index=i,
        ))
        vid = "venue:" + _key(venue)
        g.add_node(vid, **node_attributes("Venue", venue))
        g.add_edge(pid, vid, key="PUBLISHED_IN", **edge_attributes("PUBLISHED_IN", year=year))
        mid = entity(method, "Method")
        entities[mid]["proposed_by"].append(pid)
        g.add_edge(pid, mid, key="PROPOSES", **edge_attributes("PROPOSES", mentions=[{"start": 11, "end": 11 + len(method)}]))
        papers_of.setdefault(mid, set()).add(pid)
        mentions_of[mid] += 1
        targets = []
        for label, name in picks:
            eid = entity(name, label)
            start, end = spans[(label, name)]
            g.add_edge(pid, eid, key="MENTIONS", **edge_attributes("MENTIONS", mentions=[{"start": start, "end": end}]))
            papers_of.setdefault(eid, set()).add(pid)
            mentions_of[eid] += 1
            targets.append((label, eid, start, end))
        kinds = {"Dataset": "EVALUATED_ON", "Model": "COMPARED_WITH", "Metric": "MEASURED_BY",
                 "Task": "APPLIED_TO"}
        for label, eid, _start, end in targets:
            evidence = {"paper": pid, "start": 11, "end": end}
            relations.setdefault((mid, eid, kinds[label]), []).append(evidence)
        # a relation between popular entities, stated by many papers
        model = [t for t in targets if t[0] == "Model"]
        datasets = [t for t in targets if t[0] == "Dataset"]
        if model and datasets:
            relations.setdefault((model[0][1], datasets[0][1], "EVALUATED_ON"), []).append(
                {"paper": pid, "start": datasets[0][2], "end": datasets[0][3]}
            )
        if rng.random() < 0.4:
            cid = f"code:github.com/org{i % 500}/repo{i}"
            g.add_node(cid, **node_attributes("CodeRepository", f"https://{cid[5:]}", url=f"https://{cid[5:]}"))
            g.add_edge(pid, cid, key="HAS_CODE", **edge_attributes("HAS_CODE"))
        rid = f"result:{pid}:0"
        vstart = text.rindex(value)
        g.add_node(rid, **node_attributes("Result", f"{value} {picks[-2][1]}", value=value,
                                          metric=picks[-2][1], paper=pid, start=vstart, end=len(text) - 1))
        g.add_edge(pid, rid, key="REPORTS", **edge_attributes("REPORTS"))
        g.add_edge(rid, mid, key="RESULT_OF", **edge_attributes("RESULT_OF"))
        if datasets:
            g.add_edge(rid, datasets[0][1], key="RESULT_ON", **edge_attributes("RESULT_ON"))
        if model and rng.random() < 0.5:
            g.add_edge(rid, model[0][1], key="RESULT_AGAINST", **edge_attributes("RESULT_AGAINST"))

    for (u, v, kind), evidence in relations.items():
        g.add_edge(u, v, key=kind, **relation_attributes(
            kind, sorted(evidence, key=lambda e: (e["paper"], e["start"], e["end"]))))
    for eid, data in entities.items():
        data.update(proposed_by=sorted(data["proposed_by"]), paper_count=len(papers_of.get(eid, ())),
                    mention_count=mentions_of[eid])
        g.add_node(eid, **data)
    return g


def count_triples(graph: nx.MultiDiGraph) -> int:
    from kg.export.rdf import iter_ntriples

    return sum(1 for _ in iter_ntriples(graph))


def papers_for(triples: int, seed: int) -> int:
    """How many synthetic papers make about ``triples`` triples (from a dry count)."""
    sample = 500
    per_paper = count_triples(synthetic_graph(sample, seed)) / sample
    return max(1, round(triples / per_paper))


# ------------------------------------------------------------------ measuring


def _timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def bench_serialisation(graph, workdir: Path, triples: int, skip_rdflib: bool) -> dict:
    from kg.export.rdf import to_rdf, write_ntriples, write_turtle

    out: dict = {}
    _, seconds = _timed(write_turtle, graph, workdir / "graph.ttl")
    out["kg_turtle_s"] = seconds
    _, seconds = _timed(write_ntriples, graph, workdir / "graph.nt")
    out["kg_ntriples_s"] = seconds
    out["turtle_bytes"] = (workdir / "graph.ttl").stat().st_size
    if not skip_rdflib:
        rdf, seconds = _timed(to_rdf, graph)
        out["rdflib_build_graph_s"] = seconds
        _, seconds = _timed(rdf.serialize, destination=str(workdir / "rdflib.ttl"), format="turtle")
        out["rdflib_turtle_s"] = seconds
        _, seconds = _timed(rdf.serialize, destination=str(workdir / "rdflib.nt"), format="nt", encoding="utf-8")
        out["rdflib_ntriples_s"] = seconds
        del rdf
        out["ratio_ntriples"] = out["rdflib_ntriples_s"] / out["kg_ntriples_s"]
        out["ratio_turtle"] = out["rdflib_turtle_s"] / out["kg_turtle_s"]
        out["ratio_turtle_incl_graph_build"] = (
            out["rdflib_turtle_s"] + out["rdflib_build_graph_s"]
        ) / out["kg_turtle_s"]
    for key in ("kg_turtle_s", "kg_ntriples_s", "rdflib_turtle_s", "rdflib_ntriples_s"):
        if key in out:
            out[key.replace("_s", "_triples_per_s")] = triples / out[key]
    return out


def bench_loading(graph, workdir: Path) -> dict:
    from kg.query import sparql

    out: dict = {}
    _, out["embedded_load_turtle_s"] = _timed(sparql.load_store, workdir, cache=False)
    _, out["embedded_from_networkx_s"] = _timed(sparql.store_from_graph, graph)
    _, out["embedded_cache_build_s"] = _timed(sparql.load_store, workdir, cache=True)
    _, out["embedded_cache_open_s"] = _timed(sparql.load_store, workdir, cache=True)
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def bench_endpoint(workdir: Path, rounds: int, timeout: float) -> dict:
    from kg.query.sparql import examples

    shutil.rmtree(workdir / ".oxigraph", ignore_errors=True)  # a cold start: oxigraph load
    command = [sys.executable, "-m", "kg.cli.serve", str(workdir), "--port", "0", "-q",
               "--timeout", str(timeout), "--max-result-mb", "256"]
    started = time.perf_counter()
    log = workdir / "kg-serve.log"
    with open(log, "w") as err:
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True)
    try:
        line = server.stdout.readline()
        if not line.startswith("kg serve: "):
            raise RuntimeError(f"kg serve did not start: {line}{log.read_text()}")
        endpoint = line.split()[-1]
        out: dict = {"server_start_s": time.perf_counter() - started, "queries": {}}
        for example in examples():
            accept = "text/turtle" if example.form == "CONSTRUCT" else "application/sparql-results+json"
            url = endpoint + "?" + urllib.parse.urlencode({"query": example.text})
            times, size = [], 0
            for n in range(rounds + 1):
                request = urllib.request.Request(url, headers={"Accept": accept})
                start = time.perf_counter()
                with urllib.request.urlopen(request, timeout=timeout + 30) as response:
                    body = response.read()
                if n:  # the first round warms caches
                    times.append(time.perf_counter() - start)
                size = len(body)
            out["queries"][example.name] = {
                "p50_ms": 1000 * statistics.median(times),
                "p95_ms": 1000 * _percentile(times, 0.95),
                "bytes": size,
            }
        return out
    finally:
        server.terminate()
        server.wait(timeout=30)
        server.stdout.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--triples", type=int, default=1_000_000, help="target graph size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=20, help="requests per example query")
    parser.add_argument("--timeout", type=float, default=60, help="endpoint query timeout (s)")
    parser.add_argument("--skip-rdflib", action="store_true", help="do not time rdflib")
    parser.add_argument("--skip-endpoint", action="store_true", help="do not time kg serve")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)

    papers = papers_for(args.triples, args.seed)
    graph, build_s = _timed(synthetic_graph, papers, args.seed)
    triples = count_triples(graph)
    report: dict = {
        "command": "python benchmarks/rdf_bench.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "papers": papers, "nodes": graph.number_of_nodes(), "edges": graph.number_of_edges(),
        "triples": triples, "synthetic_build_s": build_s,
    }
    print(f"synthetic graph: {papers} papers, {graph.number_of_nodes()} nodes, "
          f"{graph.number_of_edges()} edges, {triples} triples ({build_s:.1f} s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="kg-rdf-bench-") as tmp:
        workdir = Path(tmp)
        report["serialisation"] = s = bench_serialisation(graph, workdir, triples, args.skip_rdflib)
        print(f"kg Turtle     {s['kg_turtle_s']:8.2f} s  {s['kg_turtle_triples_per_s']:>12,.0f} triples/s")
        print(f"kg N-Triples  {s['kg_ntriples_s']:8.2f} s  {s['kg_ntriples_triples_per_s']:>12,.0f} triples/s")
        if "rdflib_turtle_s" in s:
            print(f"rdflib Turtle {s['rdflib_turtle_s']:8.2f} s  {s['rdflib_turtle_triples_per_s']:>12,.0f} triples/s"
                  f"  (+ {s['rdflib_build_graph_s']:.2f} s building the rdflib graph)")
            print(f"ratio rdflib/kg Turtle: {s['ratio_turtle']:.1f}x "
                  f"({s['ratio_turtle_incl_graph_build']:.1f}x with the graph build)", flush=True)
            print(f"rdflib N-Triples {s['rdflib_ntriples_s']:8.2f} s  {s['rdflib_ntriples_triples_per_s']:>12,.0f} "
                  f"triples/s; ratio rdflib/kg N-Triples: {s['ratio_ntriples']:.1f}x", flush=True)
        report["loading"] = lo = bench_loading(graph, workdir)
        print(f"pyoxigraph load graph.ttl {lo['embedded_load_turtle_s']:.2f} s, from networkx "
              f"{lo['embedded_from_networkx_s']:.2f} s, cache build {lo['embedded_cache_build_s']:.2f} s, "
              f"cache open {lo['embedded_cache_open_s']:.3f} s", flush=True)
        del graph
        if not args.skip_endpoint:
            report["endpoint"] = ep = bench_endpoint(workdir, args.rounds, args.timeout)
            print(f"kg serve started in {ep['server_start_s']:.1f} s (cold: oxigraph load included); "
                  f"{args.rounds} rounds per query")
            print(f"{'example':32} {'p50 ms':>9} {'p95 ms':>9} {'bytes':>10}")
            for name, q in ep["queries"].items():
                print(f"{name:32} {q['p50_ms']:9.1f} {q['p95_ms']:9.1f} {q['bytes']:10}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
