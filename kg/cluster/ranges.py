"""Stages 5-6 of a cluster build: papers resolved into rows by range of node ids, each range
assembled from its rows as :class:`kg.graphstore.GraphStore` assembles the whole graph."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from kg.assemble import entity_attributes, paper_elements, relation_attributes
from kg.cluster.partition import _range, _records
from kg.graphstore import SortedGraph
from kg.resolve import CanonicalEntity, resolve_record
from kg.schema import RESULT_EDGES
from kg.types import PaperRecord, in_abstract


@dataclass
class _Rows:
    """What one partition sends to one range: rows as :class:`kg.graphstore.GraphStore` keeps
    them, each with the paper's place in the input (``seq``) where a later row wins."""

    nodes: list[tuple] = field(default_factory=list)  # id, (seq, n), label, attributes (JSON)
    edges: list[tuple] = field(default_factory=list)  # u, v, key, (seq, n), attributes (JSON)
    mentions: list[tuple] = field(default_factory=list)  # entity, paper, mentions, proposed
    evidence: list[tuple] = field(default_factory=list)  # u, v, key, paper, start, end, (seq, n)
    results: list[tuple] = field(default_factory=list)  # paper, value start, row of results.csv


def _resolve(data: bytes, first: int, bounds: list[str], papers: bool, *found: dict[str, tuple]) -> tuple:
    """Stage 5, the partition's papers resolved: ``papers.jsonl`` text, counts, and the rows of
    each range."""
    entries: dict[str, tuple] = {}
    for table in found:
        entries.update(table)
    canonical = {e[0]: CanonicalEntity(e[0], e[1], e[2], [], e[3], e[4]) for e in entries.values()}
    ids = {key: entry[0] for key, entry in entries.items()}
    rows = [_Rows() for _ in range(len(bounds) + 1)]
    lines, counts, records = [], Counter(), []
    for seq, extraction in enumerate(_records(data), first):
        record = resolve_record(extraction, ids.__getitem__, canonical)
        if papers:
            lines.append(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
        counts.update(proposed=sum(e.proposed for e in record.entities), relations=len(record.relations),
                      results=len(record.results), code_urls=len(record.code_urls))
        _add_rows(rows, record, seq, bounds)
        if record.results:
            records.append(record)
    for row in _result_rows(records, canonical):
        rows[_range(row[0], bounds)].results.append(row)
    return "".join(lines), counts, *rows


def _add_rows(rows: list[_Rows], record: PaperRecord, seq: int, bounds: list[str]) -> None:
    nodes, edges = paper_elements(record)
    pid = record.paper.id
    for n, (node, attrs) in enumerate(nodes):
        rows[_range(node, bounds)].nodes.append((node, (seq, n), attrs["label"], json.dumps(attrs)))
    for n, (u, v, k, attrs) in enumerate(edges):
        rows[_range(u, bounds)].edges.append((u, v, k, (seq, n), json.dumps(attrs)))
    for entity in record.entities:
        rows[_range(entity.id, bounds)].mentions.append((entity.id, pid, len(in_abstract(entity.mentions)),
                                                                  entity.proposed))
    for n, rel in enumerate(record.relations):
        rows[_range(rel.subject, bounds)].evidence.append(
            (rel.subject, rel.object, rel.predicate.upper(), pid, rel.start, rel.end, (seq, n)))


def _result_rows(records: list[PaperRecord], canonical: dict[str, CanonicalEntity]) -> list[tuple]:
    """The ``results.csv`` rows of these papers, as :func:`kg.analyse.leaderboard.result_rows`
    reads them from the graph: each paper's result nodes in id order, their entities by the
    canonical name and type."""
    import networkx as nx

    from kg.analyse.leaderboard import RESULT_COLUMNS, result_rows

    graph = nx.MultiDiGraph()
    for record in records:
        nodes, edges = paper_elements(record)
        for node, attrs in sorted(nodes, key=lambda n: n[0]):
            if attrs["label"] in ("Paper", "Result"):
                graph.add_node(node, **attrs)
        for u, v, k, _ in edges:
            if k in RESULT_EDGES:
                info = canonical[v]
                graph.add_node(v, name=info.name, label=info.type)
                graph.add_edge(u, v, key=k)
    return [(row["paper"], row["value_start"] or 0, ["" if row[c] is None else row[c] for c in RESULT_COLUMNS])
            for row in result_rows(graph)]


class _Range(SortedGraph):
    """The nodes of one range of ids and their out-edges, sorted, attributes as JSON text."""

    def __init__(self, nodes: list[tuple[str, str, str]], edges: list[tuple[str, str, str, str]],
                 results: list[list]) -> None:
        self.node_rows = nodes  # id, label, attributes
        self.edge_rows = edges  # u, v, key, attributes
        self.results = results

    def nodes(self) -> Iterator[tuple[str, dict]]:
        for node, _, attrs in self.node_rows:
            yield node, json.loads(attrs)

    def edges(self) -> Iterator[tuple[str, str, str, dict]]:
        for u, v, k, attrs in self.edge_rows:
            yield u, v, k, json.loads(attrs)


def _assemble(entities: dict[str, CanonicalEntity], *parts: _Rows) -> _Range:
    """Stage 6: one range assembled as :meth:`kg.graphstore.GraphStore.finish` assembles the
    whole graph."""
    nodes: dict[str, tuple] = {}
    edges: dict[tuple[str, str, str], tuple] = {}
    evidence: dict[tuple[str, str, str], list] = {}
    mentions: dict[str, tuple[set, list, set]] = {}
    results = []
    for part in parts:
        for node, order, label, attrs in part.nodes:
            if node not in nodes or order > nodes[node][0]:
                nodes[node] = (order, label, attrs)
        for u, v, k, order, attrs in part.edges:
            if (u, v, k) not in edges or order > edges[u, v, k][0]:
                edges[u, v, k] = (order, attrs)
        for u, v, k, paper, start, end, order in part.evidence:
            evidence.setdefault((u, v, k), []).append((paper, start, order, end))
        for eid, paper, count, proposed in part.mentions:
            papers, counts, proposers = mentions.setdefault(eid, (set(), [], set()))
            papers.add(paper)
            counts.append(count)
            if proposed:
                proposers.add(paper)
        results += part.results
    for (u, v, k), stated in evidence.items():
        stated.sort()
        found = [{"paper": paper, "start": start, "end": end} for paper, start, _, end in stated]
        edges[u, v, k] = (None, json.dumps(relation_attributes(k, found)))
    for eid, (papers, counts, proposers) in mentions.items():
        info = entities[eid]
        nodes[eid] = (None, info.type, json.dumps(entity_attributes(info, len(papers), sum(counts), sorted(proposers))))
    results.sort(key=lambda row: (row[0], row[1]))  # stable: a paper's rows come from one partition, in order
    return _Range([(node, label, attrs) for node, (_, label, attrs) in sorted(nodes.items())],
                  [(*key, attrs) for key, (_, attrs) in sorted(edges.items())],
                  [row[2] for row in results])
