"""Benchmark the merge of relation evidence in assembly: one relation stated by N papers.

For each N it times :class:`kg.assemble.GraphAssembler` (``add`` every record,
then ``finish``) on two inputs of N papers each:

- ``same``: every paper states ``Method-0 evaluated_on ImageNet`` (one edge, N evidence);
- ``distinct``: paper i states ``Method-i evaluated_on ImageNet`` (N edges, one evidence each).

``same / distinct`` near 1 at every N means the merge is linear in the papers
stating one relation. Up to ``--old-max`` papers it also times the merge as it
was before (the evidence list re-sorted on every paper), for comparison.

Usage::

    python benchmarks/evidence_bench.py --sizes 1000,2000,4000,8000,16000 --old-max 8000
"""

from __future__ import annotations

import argparse
import gc
import json
import time

from kg.assemble import GraphAssembler
from kg.types import Mention, Paper, PaperRecord, Relation, ResolvedEntity, Source


def records(n: int, same: bool) -> list[PaperRecord]:
    """N papers, each with a method, ImageNet and one ``evaluated_on`` between them.
    Papers come in a shuffled (but fixed) order, so the evidence really needs sorting."""
    out = []
    for i in range(n):
        j = (i * 7919) % n  # a permutation of 0..n-1 when n is not a multiple of 7919
        method = "entity:method-0" if same else f"entity:method-{j}"
        entities = [
            ResolvedEntity(method, "Method", "Method", False, [Mention("M", 0, 1)]),
            ResolvedEntity("entity:imagenet", "ImageNet", "Dataset", False, [Mention("ImageNet", 10, 18)]),
        ]
        paper = Paper(f"paper:{j:06d}", "M is evaluated on ImageNet.", Source("bench", j))
        out.append(PaperRecord(paper, entities, [Relation(method, "evaluated_on", "entity:imagenet", 0, 26)], [], []))
    return out


class OldAssembler(GraphAssembler):
    """The merge before the fix: the evidence list sorted again at every paper (quadratic)."""

    def add(self, record: PaperRecord) -> None:
        relations, record.relations = record.relations, []
        super().add(record)
        record.relations = relations
        g, paper = self.graph, record.paper
        for rel in relations:
            kind = rel.predicate.upper()
            evidence = {"paper": paper.id, "start": rel.start, "end": rel.end}
            if g.has_edge(rel.subject, rel.object, key=kind):
                data = g.edges[rel.subject, rel.object, kind]
                data["evidence"] = sorted([*data["evidence"], evidence], key=lambda e: (e["paper"], e["start"]))
                data["support"] = len({e["paper"] for e in data["evidence"]})
            else:
                g.add_edge(rel.subject, rel.object, key=kind, type=kind, support=1, evidence=[evidence])


def timed(assembler_class, batch: list[PaperRecord]) -> tuple[float, object]:
    gc.collect()  # garbage of the previous run is not this run's time
    start = time.perf_counter()
    assembler = assembler_class()
    for record in batch:
        assembler.add(record)
    graph = assembler.finish({})
    return time.perf_counter() - start, graph


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000,4000,8000,16000")
    parser.add_argument("--old-max", type=int, default=4000, help="largest N at which the old merge is timed")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    results = []
    print(f"{'papers':>7} {'same s':>8} {'distinct s':>10} {'same/distinct':>13} {'old same s':>10} {'old/new':>8}")
    for n in (int(s) for s in args.sizes.split(",")):
        same, distinct = records(n, True), records(n, False)
        same_s, graph = timed(GraphAssembler, same)
        distinct_s, _ = timed(GraphAssembler, distinct)
        row = {"papers": n, "same_s": round(same_s, 3), "distinct_s": round(distinct_s, 3),
               "same_over_distinct": round(same_s / distinct_s, 2)}
        if n <= args.old_max:
            old_s, old_graph = timed(OldAssembler, same)
            edge = ("entity:method-0", "entity:imagenet", "EVALUATED_ON")
            assert old_graph.edges[edge] == graph.edges[edge], "the old and new merges disagree"
            row.update(old_same_s=round(old_s, 3), old_over_new=round(old_s / same_s, 1))
        results.append(row)
        print(f"{n:>7} {row['same_s']:>8.3f} {row['distinct_s']:>10.3f} {row['same_over_distinct']:>13.2f} "
              f"{row.get('old_same_s', float('nan')):>10.3f} {row.get('old_over_new', float('nan')):>8.1f}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
