"""Benchmark loading a kg graph into a real Neo4j 5: batched UNWIND MERGE, one row per statement, neo4j-admin import.

Run it by hand; it writes nothing into the repository unless ``--json`` is given::

    python benchmarks/neo4j_bench.py --nodes 100000
    python benchmarks/neo4j_bench.py --nodes 100000 --sweep 100,1000,5000 --json out.json

The server is Neo4j 5.26 Community, started from its Maven Central jars by the
tests' launcher (``tests/neo4j_server``: Java 17 and Maven needed, ``make neo4j``
resolves the jars), a fresh server with an empty data directory for every
measurement, with ``--heap`` (default 2g) and ``--pagecache`` (default 1g).
After each load the database counts are checked against the graph.

What it measures, in one run, on one synthetic graph of ``--nodes`` nodes:

1. **Batched** (kg's loader): ``kg.export.neo4j.write_neo4j(rows, driver,
   batch_size=B)`` for each ``B`` of ``--sweep``: the uniqueness constraints,
   then ``UNWIND $rows AS row MERGE ...`` per batch in managed transactions;
   wall clock around the call, as rows (nodes + relationships) per second
   (``to_rows`` is timed once, apart). Each point is loaded ``--repeat`` times
   and the mean shown.
2. **One row per statement**: the loader people write first, with the same
   constraints and statements for one row: ``MERGE (n:Label {id: $id}) SET n +=
   $props`` per node, ``MATCH (a:L {id: $src}) MATCH (b:L {id: $dst}) MERGE
   (a)-[r:TYPE]->(b) SET r += $props`` per relationship, each an auto-commit
   query (``session.run``). Loading 300k rows that way takes too long, so it runs on
   a sample of ``--baseline-rows`` rows (relationships from every (type, source
   label, target label) group, and the nodes they join). The rest of the graph
   is loaded first with ``write_neo4j`` (untimed), so each statement meets a
   database of the full size. Node and relationship rates are measured apart and
   extrapolated: ``t = nodes / node rate + relationships / relationship rate``.
3. **neo4j-admin import**: ``kg.export.neo4j_bulk.write_bulk_csv`` (timed
   apart) and ``neo4j-admin database import full`` with the command the CSV
   directory's ``import.sh`` holds, into a new data directory (the whole
   process, JVM start included); then the server is started on it and the
   counts checked; creating the constraints afterwards (``schema.cypher``) is
   timed apart.

The synthetic graph follows ``docs/graph-schema.md``; per paper: a Paper node
(title, an abstract of ``--abstract-chars`` characters naming its entities at the
recorded offsets, year, venue, DOI or arXiv id, authors, source), a new Method it
PROPOSES, two MENTIONS of popular entities (Zipf over the five entity types),
a new long-tail dataset, model, metric or task for four papers in five, a relation with evidence from
the new method (EVALUATED_ON, COMPARED_WITH, MEASURED_BY, APPLIED_TO, USES or
EXTENDS, by the target's type), PUBLISHED_IN a venue for nine in ten, HAS_CODE
for one in three, and for every second paper a Result with REPORTS, RESULT_OF,
RESULT_ON and RESULT_AGAINST. Entities carry aliases, catalogue ids, paper and
mention counts, proposed_by. That is about 3.6 nodes and 8 relationships per
paper: about 2.2 relationships per node.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx

from kg.schema import edge_attributes, node_attributes

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the launcher of the test Neo4j: tests/neo4j_server

VENUES = ["ICLR", "NeurIPS", "ICML", "ACL", "EMNLP", "CVPR", "AAAI", "KDD"]
HEADS = {
    "Dataset": [
        "CIFAR-10",
        "ImageNet",
        "GSM8K",
        "MATH",
        "MNIST",
        "TriviaQA",
        "MMLU",
        "HumanEval",
        "SQuAD",
        "COCO",
    ],
    "Model": ["GPT-4o", "GPT-4", "Llama-3-8B", "LLaMA-2", "Mistral", "Claude 3", "T5", "BERT"],
    "Metric": ["accuracy", "F1", "latency", "throughput", "perplexity", "BLEU", "FID"],
    "Task": [
        "question answering",
        "image generation",
        "language modeling",
        "code generation",
        "link prediction",
        "image classification",
    ],
    "Method": ["ResNet", "Transformer", "LoRA", "Mixture of Experts", "Speculative RAG"],
}
#: Popular entities per type (named ones first), drawn with a Zipf law.
HEAD_POOL = 400
CATALOGUE = {
    "CIFAR-10": "pwc:dataset:cifar-10",
    "ImageNet": "pwc:dataset:imagenet",
    "GPT-4o": "model:gpt-4o",
    "accuracy": "pwc:metric:accuracy",
    "question answering": "pwc:task:question-answering",
}
RELATION = {
    "Dataset": "EVALUATED_ON",
    "Model": "COMPARED_WITH",
    "Metric": "MEASURED_BY",
    "Task": "APPLIED_TO",
    "Method": "USES",
}
ENTITY_LABELS = ["Dataset", "Model", "Metric", "Task", "Method"]  # kg.schema's, in the order drawn
FILLER_TEXT = (
    "we study the problem of robust learning under distribution shift and show that a simple "
    "objective with careful regularisation improves results across settings while the cost "
    "stays low ; experiments confirm the analysis and ablations isolate each component of "
    "the approach for future work"
)
SURNAMES = [
    "Smith",
    "O'Brien",
    "Zhang",
    "Müller",
    "García",
    "Nakamura",
    "Okafor",
    "Dubois",
    "Kowalski",
]


# ---------------------------------------------------------------- synthetic graph


def _key(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")


def _zipf(rng: random.Random, n: int, s: float = 1.1) -> int:
    """An index in ``range(n)``, 0 the most frequent (inverse CDF of a truncated Zipf law)."""
    u = rng.random()
    index = int((n ** (1 - s) * u + (1 - u)) ** (1 / (1 - s))) - 1
    return min(max(index, 0), n - 1)


def synthetic_graph(
    target_nodes: int, seed: int = 0, abstract_chars: int = 1000
) -> nx.MultiDiGraph:
    """Papers in the shape of :mod:`kg.schema` until the graph has ``target_nodes`` nodes."""
    rng = random.Random(seed)
    filler = FILLER_TEXT.split()
    g = nx.MultiDiGraph()
    pools = {
        label: names + [f"Popular {label} {k}" for k in range(HEAD_POOL - len(names))]
        for label, names in HEADS.items()
    }
    papers_of: dict[str, set[str]] = {}
    mention_count: Counter = Counter()
    proposed_by: dict[str, list[str]] = {}

    def entity(label: str, name: str) -> str:
        eid = "entity:" + _key(name)
        if eid not in g:
            g.add_node(eid, **node_attributes(label, name))
        return eid

    def mention(pid: str, eid: str, kind: str, start: int, end: int) -> None:
        g.add_edge(pid, eid, key=kind, **edge_attributes(kind, mentions=[{"start": start, "end": end}]))
        papers_of.setdefault(eid, set()).add(pid)
        mention_count[eid] += 1

    i = 0
    while g.number_of_nodes() < target_nodes:
        if i % 3 == 0:
            pid, doi, arxiv = f"doi:10.5555/syn.{i}", f"10.5555/syn.{i}", None
        else:
            arxiv = f"{2000 + i // 100000}.{i % 100000:05d}"
            pid, doi = f"arxiv:{arxiv}", None
        method = f"Method {i}"
        heads = []
        for _ in range(2):
            label = rng.choice(ENTITY_LABELS)
            heads.append((label, pools[label][_zipf(rng, HEAD_POOL)]))
        heads = list(dict.fromkeys(heads))
        tail = (ENTITY_LABELS[i % 4], f"{ENTITY_LABELS[i % 4]} X{i}") if i % 5 else None
        named = [("Method", method), *heads, *([tail] if tail else [])]
        # the abstract names every entity; the offsets point at them
        text, spans = "We propose ", {}
        for n, (label, name) in enumerate(named):
            spans[(label, name)] = (len(text), len(text) + len(name))
            text += name + (", which we compare with " if n == 0 else " and ")
        while len(text) < abstract_chars:
            text += rng.choice(filler) + " "
        text = text.rstrip() + "."
        year = 2018 + i % 8
        venue = VENUES[_zipf(rng, len(VENUES))] if i % 10 else None
        title = f"{method}: learning {heads[0][1]} at scale"
        authors = [
            f"{rng.choice('ABCDEFGHJKLMNPRSTVWZ')}. {rng.choice(SURNAMES)}" for _ in range(4)
        ]
        g.add_node(pid, **node_attributes(
            "Paper",
            title,
            title=title,
            abstract=text,
            year=year,
            venue=venue,
            doi=doi,
            arxiv_id=arxiv,
            authors=authors,
            source_path="synthetic.jsonl",
            source_index=i,
        ))
        if venue:
            vid = "venue:" + _key(venue)
            g.add_node(vid, **node_attributes("Venue", venue))
            g.add_edge(pid, vid, key="PUBLISHED_IN", **edge_attributes("PUBLISHED_IN", year=year))
        mid = entity("Method", method)
        proposed_by.setdefault(mid, []).append(pid)
        mention(pid, mid, "PROPOSES", *spans[("Method", method)])
        for label, name in named[1:]:
            mention(pid, entity(label, name), "MENTIONS", *spans[(label, name)])
        target_label, target_name = heads[0]
        rel = "EXTENDS" if target_label == "Method" and i % 2 else RELATION[target_label]
        g.add_edge(mid, entity(target_label, target_name), key=rel, **edge_attributes(
            rel, support=1, evidence=[{"paper": pid, "start": 0, "end": spans[heads[0]][1]}]))
        if i % 3 == 0:
            cid = f"code:github.com/org{i % 700}/repo-{i}"
            g.add_node(cid, **node_attributes("CodeRepository", f"https://{cid[5:]}", url=f"https://{cid[5:]}"))
            g.add_edge(pid, cid, key="HAS_CODE", **edge_attributes("HAS_CODE"))
        if i % 2 == 0:
            rid = f"result:{pid}:0"
            value = f"{50 + i % 50}.{i % 10}%"
            g.add_node(rid, **node_attributes(
                "Result", f"{value} accuracy", value=value, metric="accuracy", paper=pid,
                start=len(text) - 6, end=len(text) - 1,
            ))
            g.add_edge(pid, rid, key="REPORTS", **edge_attributes("REPORTS"))
            g.add_edge(rid, mid, key="RESULT_OF", **edge_attributes("RESULT_OF"))
            dataset = entity("Dataset", pools["Dataset"][_zipf(rng, HEAD_POOL)])
            g.add_edge(rid, dataset, key="RESULT_ON", **edge_attributes("RESULT_ON"))
            baseline = entity("Model", pools["Model"][_zipf(rng, HEAD_POOL)])
            g.add_edge(rid, baseline, key="RESULT_AGAINST", **edge_attributes("RESULT_AGAINST"))
        i += 1
    for node, attrs in g.nodes(data=True):
        if attrs["label"] in RELATION:
            name = attrs["name"]
            attrs.update(
                aliases=sorted({name.upper(), name + "s"} - {name}),
                catalogue_id=CATALOGUE.get(name),
                generic=False,
                paper_count=len(papers_of.get(node, ())),
                mention_count=mention_count[node],
                proposed_by=sorted(proposed_by.get(node, ())),
            )
    g.graph["papers"] = i
    return g


# ---------------------------------------------------------------- measurements


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _server(home: Path, args):
    from neo4j_server import Neo4jServer

    return Neo4jServer(home, heap=args.heap, pagecache=args.pagecache)


def _db_counts(driver) -> tuple[int, int]:
    nodes = driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    rels = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS n").records[0]["n"]
    return int(nodes), int(rels)


def bench_batched(rows, batch_size: int, args) -> dict[str, Any]:
    """``write_neo4j`` into a fresh, empty Neo4j."""
    from kg.export.neo4j import write_neo4j

    total = rows.node_total + rows.relationship_total
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as tmp, _server(Path(tmp), args) as server:
        driver = server.driver()
        load_before = _load()
        start = time.perf_counter()
        stats = write_neo4j(rows, driver, batch_size=batch_size, progress=False)
        seconds = time.perf_counter() - start
        load_after = _load()
        nodes, rels = _db_counts(driver)
    return {
        "batch_size": batch_size,
        "rows": total,
        "seconds": round(seconds, 2),
        "rows_per_s": round(total / seconds),
        "transactions": stats.transactions,
        "counts_ok": (nodes, rels) == (rows.node_total, rows.relationship_total),
        "load_avg": [load_before, load_after],
    }


def baseline_sample(rows, size: int) -> tuple[list, list]:
    """About ``size`` rows: relationships from every group (evenly spaced) and the nodes they join.

    Returns ``(nodes, relationships)`` as ``[(label, row)]`` and ``[((type, src, dst), row)]``.
    """
    total_rels = rows.relationship_total

    def pick(want: int) -> tuple[list, list]:
        rels = []
        for group, group_rows in rows.relationships.items():
            k = max(1, round(want * len(group_rows) / total_rels))
            step = max(1, len(group_rows) // k)
            rels += [(group, row) for row in group_rows[::step][:k]]
        needed = {(g[1], r["src"]) for g, r in rels} | {(g[2], r["dst"]) for g, r in rels}
        nodes = [
            (label, row)
            for label, node_rows in rows.nodes.items()
            for row in node_rows
            if (label, row["id"]) in needed
        ]
        return nodes, rels

    want = max(1, round(size * total_rels / (rows.node_total + total_rels)))
    nodes, rels = pick(want)
    # the nodes a sample needs depend on the graph: scale once towards `size` rows in all
    return pick(max(1, round(want * size / (len(nodes) + len(rels)))))


def _node_statement(label: str) -> str:
    return f"MERGE (n:{label} {{id: $id}}) SET n += $props"


def _relationship_statement(group: tuple[str, str, str]) -> str:
    rel_type, src, dst = group
    return (
        f"MATCH (a:{src} {{id: $src}}) MATCH (b:{dst} {{id: $dst}}) "
        f"MERGE (a)-[r:{rel_type}]->(b) SET r += $props"
    )


def rows_without(rows, sample: tuple[list, list]):
    """``rows`` less the sampled rows: what is preloaded before the baseline is timed."""
    from kg.export.neo4j import Rows

    taken = {id(row) for _, row in sample[0]} | {id(row) for _, row in sample[1]}
    return Rows(
        nodes={label: [r for r in rs if id(r) not in taken] for label, rs in rows.nodes.items()},
        relationships={
            group: [r for r in rs if id(r) not in taken] for group, rs in rows.relationships.items()
        },
    )


def bench_per_row(rows, sample: tuple[list, list], args) -> dict[str, Any]:
    """One auto-commit statement per row, after the rest of the graph was loaded (untimed)."""
    from kg.export.neo4j import Rows, write_neo4j

    nodes, rels = sample
    rest = rows_without(rows, sample)
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as tmp, _server(Path(tmp), args) as server:
        driver = server.driver()
        start = time.perf_counter()
        write_neo4j(Rows(nodes=rest.nodes), driver, progress=False)  # constraints, other nodes
        preload_s = time.perf_counter() - start
        jobs = {
            "node": [(_node_statement(label), row) for label, row in nodes],
            "rel": [(_relationship_statement(group), row) for group, row in rels],
        }
        seconds = {}
        load_before = _load()
        with driver.session() as session:
            for kind, statements in jobs.items():
                if kind == "rel":  # the other relationships first, as kg's order has them
                    start = time.perf_counter()
                    write_neo4j(Rows(relationships=rest.relationships), driver, progress=False)
                    preload_s += time.perf_counter() - start
                start = time.perf_counter()
                for query, row in statements:
                    session.run(query, row).consume()
                seconds[kind] = time.perf_counter() - start
        load_after = _load()
        db = _db_counts(driver)
    node_rate = len(nodes) / seconds["node"]
    rel_rate = len(rels) / seconds["rel"]
    full_s = rows.node_total / node_rate + rows.relationship_total / rel_rate
    total = rows.node_total + rows.relationship_total
    return {
        "rows": total,
        "sample_nodes": len(nodes),
        "sample_relationships": len(rels),
        "sample_seconds": round(seconds["node"] + seconds["rel"], 2),
        "preload_s": round(preload_s, 1),
        "node_rows_per_s": round(node_rate),
        "relationship_rows_per_s": round(rel_rate),
        "seconds": round(full_s, 1),
        "rows_per_s": round(total / full_s),
        "counts_ok": db == (rows.node_total, rows.relationship_total),
        "load_avg": [load_before, load_after],
    }


def bench_import(rows, args) -> dict[str, Any]:
    """CSV files, then ``neo4j-admin database import full`` into a new data directory."""
    from kg.export.neo4j_bulk import write_bulk_csv

    total = rows.node_total + rows.relationship_total
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as tmp:
        start = time.perf_counter()
        files = write_bulk_csv(rows, Path(tmp) / "csv")
        csv_s = time.perf_counter() - start
        server = _server(Path(tmp) / "home", args)
        load_before = _load()
        start = time.perf_counter()
        done = server.admin(*files.command()[1:])  # the command import.sh runs, less "neo4j-admin"
        seconds = time.perf_counter() - start
        said = re.search(r"IMPORT DONE in ([^.\n]*)", done.stdout + done.stderr)
        load_after = _load()
        with server:
            start = time.perf_counter()
            shell = server.cypher_shell("--fail-fast", "-f", str(files.schema))
            schema_s = time.perf_counter() - start
            if shell.returncode != 0:
                raise SystemExit(f"schema.cypher failed: {shell.stderr}")
            db = _db_counts(server.driver())
    return {
        "rows": total,
        "csv_seconds": round(csv_s, 2),
        "seconds": round(seconds, 2),
        "rows_per_s": round(total / seconds),
        "constraints_seconds": round(schema_s, 2),
        "importer_says": said.group(1).strip() if said else None,
        "counts_ok": db == (rows.node_total, rows.relationship_total),
        "load_avg": [load_before, load_after],
    }


# ---------------------------------------------------------------- main


def _graph(nodes: int, seed: int, abstract_chars: int):
    from kg.export.neo4j import to_rows

    start = time.perf_counter()
    graph = synthetic_graph(nodes, seed, abstract_chars)
    built = time.perf_counter() - start
    start = time.perf_counter()
    rows = to_rows(graph)
    to_rows_s = time.perf_counter() - start
    info = {
        "target_nodes": nodes,
        "papers": graph.graph["papers"],
        "nodes": rows.node_total,
        "relationships": rows.relationship_total,
        "relationships_per_node": round(rows.relationship_total / rows.node_total, 2),
        "generate_s": round(built, 1),
        "to_rows_s": round(to_rows_s, 1),
        "node_labels": rows.node_counts(),
        "relationship_types": rows.relationship_counts(),
    }
    print(
        f"graph: {info['papers']:,} papers, {info['nodes']:,} nodes, {info['relationships']:,} "
        f"relationships ({info['relationships_per_node']} per node); generated in {built:.1f} s, "
        f"to_rows {to_rows_s:.1f} s; load average {_load()}",
        flush=True,
    )
    return rows, info


def _row(name: str, r: dict, extra: str = "") -> None:
    print(
        f"{name:36} {r['rows']:>8,} {r['seconds']:>8.1f} {r['rows_per_s']:>10,} "
        f"{r['counts_ok']!s:>6} {r['load_avg'][0]:>5.1f}/{r['load_avg'][1]:<5.1f} {extra}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000, help="nodes of the synthetic graph")
    parser.add_argument("--sweep", default="100,500,1000,5000,20000",
                        help="batch sizes for write_neo4j")  # fmt: skip
    parser.add_argument("--repeat", type=int, default=1, help="loads per batch size (mean shown)")
    parser.add_argument("--baseline-rows", type=int, default=5000,
                        help="rows the one-row-per-statement loader loads (rates are extrapolated)")  # fmt: skip
    parser.add_argument("--abstract-chars", type=int, default=1000,
                        help="length of each synthetic abstract (real ones are about 1,000-1,500)")  # fmt: skip
    parser.add_argument("--heap", default="2g", help="Neo4j's Java heap")
    parser.add_argument("--pagecache", default="1g", help="Neo4j's page cache")
    parser.add_argument("--skip-import", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    sweep = [int(s) for s in args.sweep.split(",") if s]

    from neo4j_server import neo4j_version

    started = time.perf_counter()
    report: dict[str, Any] = {
        "command": "python benchmarks/neo4j_bench.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "neo4j": f"Neo4j {neo4j_version()} Community, heap {args.heap}, page cache {args.pagecache}",
        "load_avg_start": [round(x, 2) for x in os.getloadavg()],
    }
    print(f"machine: {report['machine']}; {report['neo4j']}; load average "
          f"{report['load_avg_start']}", flush=True)  # fmt: skip
    rows, report["graph"] = _graph(args.nodes, args.seed, args.abstract_chars)

    header = f"{'loader':36} {'rows':>8} {'seconds':>8} {'rows/s':>10} {'counts':>6} {'load avg':>11}"
    print(header)
    print("-" * len(header))
    report["sweep"] = []
    for batch in sweep:
        runs = [bench_batched(rows, batch, args) for _ in range(max(1, args.repeat))]
        r = dict(runs[0])
        seconds = sum(run["seconds"] for run in runs) / len(runs)
        r["seconds"] = round(seconds, 2)
        r["rows_per_s"] = round(r["rows"] / seconds)
        r["runs_rows_per_s"] = [run["rows_per_s"] for run in runs]
        r["counts_ok"] = all(run["counts_ok"] for run in runs)
        r["load_avg"] = [runs[0]["load_avg"][0], runs[-1]["load_avg"][1]]
        report["sweep"].append(r)
        spread = f"runs: {', '.join(f'{x:,}' for x in r['runs_rows_per_s'])}" if len(runs) > 1 else ""
        _row(f"batched UNWIND MERGE, batch {batch}", r, f"{r['transactions']:,} transactions {spread}")
    best = max(report["sweep"], key=lambda r: r["rows_per_s"])

    sample = baseline_sample(rows, args.baseline_rows)
    b = bench_per_row(rows, sample, args)
    report["per_row"] = b
    _row("one row per statement (extrapolated)", b,
         f"from {b['sample_nodes']:,} nodes + {b['sample_relationships']:,} relationships in "
         f"{b['sample_seconds']:.1f} s ({b['node_rows_per_s']:,} and "
         f"{b['relationship_rows_per_s']:,} rows/s)")  # fmt: skip
    if not args.skip_import:
        i = bench_import(rows, args)
        report["import"] = i
        _row("neo4j-admin database import full", i,
             f"importer: done in {i['importer_says']}; CSV files written in {i['csv_seconds']:.1f} s; "
             "constraints after it "
             f"{i['constraints_seconds']:.1f} s")  # fmt: skip

    print()
    print(f"fastest batch size: {best['batch_size']} ({best['rows_per_s']:,} rows/s)")
    report["ratios"] = {"batched/per_row": round(best["rows_per_s"] / b["rows_per_s"], 1)}
    print(f"ratio batched (batch {best['batch_size']}) / one row per statement: "
          f"{report['ratios']['batched/per_row']}x")  # fmt: skip
    if "import" in report:
        report["ratios"]["import/batched"] = round(report["import"]["rows_per_s"] / best["rows_per_s"], 1)
        print(f"ratio neo4j-admin import / batched: {report['ratios']['import/batched']}x")
    report["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
    report["total_s"] = round(time.perf_counter() - started, 1)
    print(f"total {report['total_s']:.0f} s; load average at the end {report['load_avg_end']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
