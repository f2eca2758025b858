"""The assembled graph on disk (SQLite), for builds whose graph does not fit in memory.

:class:`GraphStore` takes the same records as :class:`kg.assemble.GraphAssembler`
and gives the same nodes, edges and attributes, but keeps them in an SQLite
file: memory stays flat however many papers are added (a networkx graph of
100,000 papers took 3.1 GB; see docs/performance.md). Writers read it back in
the order they write, nodes by id and edges by ``(source, target, key)``, so
files written from a store are byte for byte those written from the networkx
graph. :func:`sorted_graph` gives the same reading interface over a networkx
graph, so each writer has one code path.

Ids are stored as UTF-8 bytes with lone surrogates kept (``surrogatepass``):
their byte order is the code-point order of Python's ``sorted``, and a paper id
taken from a malformed DOI still stores. Attributes are JSON text.

Examples
--------
>>> from kg.types import Paper, PaperRecord, ResolvedEntity, Mention, Source
>>> from kg.resolve import CanonicalEntity
>>> paper = Paper("paper:1", "We use MNIST.", Source("a.txt", 0), venue="ICLR", year=2025)
>>> mnist = ResolvedEntity("entity:mnist", "MNIST", "Dataset", False, [Mention("MNIST", 7, 12)])
>>> store = GraphStore(":memory:")
>>> store.add(PaperRecord(paper, [mnist], [], [], []))
>>> store.finish({"entity:mnist": CanonicalEntity("entity:mnist", "MNIST", "Dataset", [], None)})
>>> [node for node, _ in store.nodes()]
['entity:mnist', 'paper:1', 'venue:iclr']
>>> [(u, v, k) for u, v, k, _ in store.edges()]
[('paper:1', 'entity:mnist', 'MENTIONS'), ('paper:1', 'venue:iclr', 'PUBLISHED_IN')]
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from kg.assemble import entity_attributes, paper_elements, relation_attributes
from kg.schema import relation_type
from kg.types import PaperRecord, in_abstract

if TYPE_CHECKING:
    from kg.resolve import CanonicalEntity

__all__ = ["GraphStore", "SortedGraph", "sorted_graph"]

Node = tuple[str, dict[str, Any]]
Edge = tuple[str, str, str, dict[str, Any]]

_SCHEMA = """
CREATE TABLE nodes (id BLOB PRIMARY KEY, label TEXT, attrs TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE edges (u BLOB, v BLOB, k BLOB, attrs TEXT NOT NULL, PRIMARY KEY (u, v, k)) WITHOUT ROWID;
CREATE TABLE mentions (entity BLOB, paper BLOB, count INTEGER, proposed INTEGER);
CREATE TABLE evidence (u BLOB, v BLOB, k BLOB, paper BLOB, start INTEGER, end_ INTEGER);
"""
#: Records buffered before one ``executemany`` per table.
_BATCH = 2000


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _s(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


class SortedGraph:
    """Read a graph in the order the writers need: what :class:`GraphStore` and
    :func:`sorted_graph` both give."""

    def nodes(self) -> Iterator[Node]:
        """``(id, attributes)`` sorted by id."""
        raise NotImplementedError

    def edges(self) -> Iterator[Edge]:
        """``(source, target, key, attributes)`` sorted by source, target, key."""
        raise NotImplementedError

    def adjacency(self) -> Iterator[tuple[str, dict[str, Any], list[Edge]]]:
        """Each node with its out-edges, both sorted (one pass over each)."""
        edges = self.edges()
        edge = next(edges, None)
        for node, attrs in self.nodes():
            out = []
            while edge is not None and edge[0] == node:
                out.append(edge)
                edge = next(edges, None)
            yield node, attrs, out


class _NetworkxSorted(SortedGraph):
    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.graph = graph

    def nodes(self) -> Iterator[Node]:
        return iter(sorted(self.graph.nodes(data=True), key=lambda n: str(n[0])))

    def edges(self) -> Iterator[Edge]:
        return iter(sorted(self.graph.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2]))))


def sorted_graph(graph: nx.MultiDiGraph | SortedGraph) -> SortedGraph:
    """A store as it is; a networkx graph read through the same sorted interface."""
    return graph if isinstance(graph, SortedGraph) else _NetworkxSorted(graph)


class GraphStore(SortedGraph):
    """The graph of :class:`kg.assemble.GraphAssembler`, assembled into an SQLite file.

    ``add`` every record, then ``finish`` once; then read it with ``nodes``,
    ``edges``, ``adjacency`` or ``to_networkx``. The file is scratch space:
    journal and syncing are off, and it is useless after a crash.
    """

    def __init__(self, path: str | Path, cache_mb: int = 256) -> None:
        self._db = sqlite3.connect(str(path))
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        self._db.execute(f"PRAGMA cache_size = {-1024 * cache_mb}")
        self._db.executescript(_SCHEMA)
        self._pending: dict[str, list[tuple]] = {"nodes": [], "edges": [], "mentions": [], "evidence": []}
        self._records = 0

    def add(self, record: PaperRecord) -> None:
        nodes, edges = paper_elements(record)
        pid = _b(record.paper.id)
        self._pending["nodes"] += [(_b(node), attrs["label"], json.dumps(attrs)) for node, attrs in nodes]
        self._pending["edges"] += [(_b(u), _b(v), _b(k), json.dumps(attrs)) for u, v, k, attrs in edges]
        self._pending["mentions"] += [(_b(e.id), pid, len(in_abstract(e.mentions)), e.proposed)
                                       for e in record.entities]
        self._pending["evidence"] += [(_b(rel.subject), _b(rel.object), _b(relation_type(rel.predicate)), pid,
                                       rel.start, rel.end) for rel in record.relations]
        self._records += 1
        if self._records % _BATCH == 0:
            self._flush()

    def _flush(self) -> None:
        """Write the buffered rows; a later row for the same node or edge replaces the earlier,
        as a later ``add_node`` / ``add_edge`` does in networkx."""
        pending = self._pending
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO nodes VALUES (?, ?, ?)", pending["nodes"])
            self._db.executemany("INSERT OR REPLACE INTO edges VALUES (?, ?, ?, ?)", pending["edges"])
            self._db.executemany("INSERT INTO mentions VALUES (?, ?, ?, ?)", pending["mentions"])
            self._db.executemany("INSERT INTO evidence VALUES (?, ?, ?, ?, ?, ?)", pending["evidence"])
        for rows in pending.values():
            rows.clear()

    def finish(self, entities: Mapping[str, CanonicalEntity]) -> None:
        """Add the relation edges (evidence sorted by paper, then start) and the entity nodes
        with their attributes from the resolver's canonical entities (each must be there)."""
        self._flush()
        read = self._db.cursor()
        rows = read.execute("SELECT u, v, k, paper, start, end_ FROM evidence ORDER BY u, v, k, paper, start, rowid")
        batch = []
        for (u, v, k), group in groupby(rows, key=lambda r: r[:3]):
            evidence = [{"paper": _s(paper), "start": start, "end": end} for *_, paper, start, end in group]
            batch.append((u, v, k, json.dumps(relation_attributes(_s(k), evidence))))
            if len(batch) >= 10_000:
                self._db.executemany("INSERT OR REPLACE INTO edges VALUES (?, ?, ?, ?)", batch)
                batch.clear()
        self._db.executemany("INSERT OR REPLACE INTO edges VALUES (?, ?, ?, ?)", batch)
        batch.clear()
        rows = read.execute(
            "SELECT entity, paper, count, proposed FROM mentions ORDER BY entity, paper, rowid")
        for eid, group in groupby(rows, key=lambda r: r[0]):
            papers, proposed_by, mentions = set(), set(), 0
            for _, paper, count, proposed in group:
                papers.add(paper)
                mentions += count
                if proposed:
                    proposed_by.add(_s(paper))
            info = entities[_s(eid)]
            batch.append((eid, info.type, json.dumps(entity_attributes(info, len(papers), mentions,
                                                                       sorted(proposed_by)))))
            if len(batch) >= 10_000:
                self._db.executemany("INSERT OR REPLACE INTO nodes VALUES (?, ?, ?)", batch)
                batch.clear()
        self._db.executemany("INSERT OR REPLACE INTO nodes VALUES (?, ?, ?)", batch)
        self._db.execute("DELETE FROM evidence")
        self._db.execute("DELETE FROM mentions")
        self._db.commit()

    def nodes(self) -> Iterator[Node]:
        for node, attrs in self._db.execute("SELECT id, attrs FROM nodes ORDER BY id"):
            yield _s(node), json.loads(attrs)

    def edges(self) -> Iterator[Edge]:
        for u, v, k, attrs in self._db.execute("SELECT u, v, k, attrs FROM edges ORDER BY u, v, k"):
            yield _s(u), _s(v), _s(k), json.loads(attrs)

    def labelled(self, labels: tuple[str, ...]) -> Iterator[Node]:
        """The nodes with one of ``labels``, sorted by id (the others are not decoded)."""
        marks = ", ".join("?" * len(labels))
        for node, attrs in self._db.execute(f"SELECT id, attrs FROM nodes WHERE label IN ({marks}) ORDER BY id", labels):
            yield _s(node), json.loads(attrs)

    def degrees(self, ids: set[str]) -> dict[str, int]:
        """In- plus out-edges of each of ``ids``, as ``MultiDiGraph.degree`` counts them."""
        wanted = {_b(i) for i in ids}
        out = dict.fromkeys(ids, 0)
        for column in ("u", "v"):
            for node, count in self._db.execute(f"SELECT {column}, count(*) FROM edges GROUP BY {column}"):
                if node in wanted:
                    out[_s(node)] += count
        return out

    def number_of_nodes(self) -> int:
        return self._db.execute("SELECT count(*) FROM nodes").fetchone()[0]

    def number_of_edges(self) -> int:
        return self._db.execute("SELECT count(*) FROM edges").fetchone()[0]

    def to_networkx(self) -> nx.MultiDiGraph:
        """The whole graph in memory, as :class:`~kg.assemble.GraphAssembler` gives it
        (nodes and edges in sorted order)."""
        graph = nx.MultiDiGraph()
        graph.add_nodes_from(self.nodes())
        graph.add_edges_from(self.edges())
        return graph

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
