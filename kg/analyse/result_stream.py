"""The rows of ``results.csv`` from a streamed graph (a build's store, its ``graph.json``), in
memory that does not grow with the results.

:func:`kg.analyse.leaderboard.result_rows` needs each Result node beside its paper and the
entities its edges point to, sorted by paper. A streamed graph gives nodes by id and edges by
source, so those are joins and a sort: they go through a scratch SQLite file (SQLite sorts on
disk), as :class:`kg.graphstore.GraphStore` does for assembly. Three passes: the Result nodes
and their edges into the file, with the ids they need; the nodes read once more, those ids'
attributes kept (merged in id order: both sides are sorted); then the results read back in
``results.csv``'s order, each row built by :func:`~kg.analyse.leaderboard.result_row`, the
code the graph in memory uses, so the file is byte for byte the same.

Ids are compared as text (``str``), in code-point order, as the streamed graph sorts them.

Examples
--------
>>> import networkx as nx, tempfile
>>> from kg.graphstore import sorted_graph
>>> graph = nx.MultiDiGraph()
>>> graph.add_node("paper:1", label="Paper", title="Zorb", abstract="Zorb gets 91%.")
>>> graph.add_node("result:paper:1:0", label="Result", paper="paper:1", value="91%", start=10)
>>> graph.add_node("entity:zorb", label="Method", name="Zorb")
>>> _ = graph.add_edge("result:paper:1:0", "entity:zorb", key="RESULT_OF")
>>> with tempfile.TemporaryDirectory() as scratch:
...     [row] = streamed_result_rows(sorted_graph(graph), scratch)
>>> row["title"], row["value"], row["subject"], row["subject_type"]
('Zorb', '91%', 'Zorb', 'Method')
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from kg.analyse.leaderboard import result_row
from kg.graphstore import SortedGraph
from kg.schema import RESULT_FIELDS

__all__ = ["streamed_result_rows"]

_SCHEMA = """
CREATE TABLE results (paper BLOB, start, seq INTEGER, attrs TEXT, refs TEXT);
CREATE TABLE wanted (id BLOB PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE found (id BLOB PRIMARY KEY, attrs TEXT) WITHOUT ROWID;
"""
#: What a row reads of a paper and of an entity a result points to.
_NEEDED = ("title", "name", "year", "venue", "abstract", "label")
#: Rows buffered before one ``executemany``: what memory holds at any time.
_BATCH = 1000


def _b(text: str) -> bytes:
    """An id as the sort key of its text (UTF-8 byte order is code-point order)."""
    return text.encode("utf-8", "surrogatepass")


def streamed_result_rows(source: SortedGraph, scratch: str | Path | None = None) -> Iterator[dict]:
    """The rows of :func:`kg.analyse.leaderboard.result_rows` for ``source``, in its order; the
    scratch file goes in a temporary directory in ``scratch`` (default: the system's)."""
    with tempfile.TemporaryDirectory(prefix=".kg-results-", dir=scratch) as where:
        with closing(sqlite3.connect(Path(where) / "results.sqlite")) as db:
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("PRAGMA synchronous = OFF")
            db.executescript(_SCHEMA)
            _add_results(db, source)
            _add_wanted_nodes(db, source)
            yield from _rows(db)


def _add_results(db: sqlite3.Connection, source: SortedGraph) -> None:
    """Each Result node with its sort key and its result edges; the ids of their paper and targets."""
    results: list[tuple] = []
    wanted: list[tuple[bytes]] = []
    seq = 0
    for _, attrs, out in source.adjacency():
        if attrs.get("label") != "Result":
            continue
        refs = [(key, target) for _, target, key, _ in out if key in RESULT_FIELDS]
        paper = attrs.get("paper")
        results.append((_b(str(paper)), attrs.get("start") or 0, seq, json.dumps(attrs), json.dumps(refs)))
        wanted += [(_b(str(target)),) for _, target in refs]
        if paper is not None:
            wanted.append((_b(str(paper)),))
        seq += 1
        if len(results) >= _BATCH:
            _insert_results(db, results, wanted)
    _insert_results(db, results, wanted)


def _insert_results(db: sqlite3.Connection, results: list[tuple], wanted: list[tuple[bytes]]) -> None:
    with db:
        db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?)", results)
        db.executemany("INSERT OR IGNORE INTO wanted VALUES (?)", wanted)
    results.clear()
    wanted.clear()


def _add_wanted_nodes(db: sqlite3.Connection, source: SortedGraph) -> None:
    """What rows read of the wanted nodes: the nodes and the wanted ids, both in id order, merged."""
    ids = (row[0] for row in db.execute("SELECT id FROM wanted ORDER BY id"))
    want = next(ids, None)
    found: list[tuple[bytes, str]] = []
    for node, attrs in source.nodes():
        key = _b(str(node))
        while want is not None and want < key:
            want = next(ids, None)
        if want is None:
            break
        if want == key:
            found.append((key, json.dumps({name: attrs[name] for name in _NEEDED if name in attrs})))
            if len(found) >= _BATCH:
                db.executemany("INSERT INTO found VALUES (?, ?)", found)
                found.clear()
    db.executemany("INSERT INTO found VALUES (?, ?)", found)
    db.commit()


def _rows(db: sqlite3.Connection) -> Iterator[dict]:
    """The results by paper, then start, then as found; each joined to its paper and targets."""
    lookup = db.cursor()

    def attributes(node: Any) -> dict:
        hit = lookup.execute("SELECT attrs FROM found WHERE id = ?", (_b(str(node)),)).fetchone()
        return json.loads(hit[0]) if hit else {}

    for attrs, refs in db.execute("SELECT attrs, refs FROM results ORDER BY paper, start, seq"):
        data = json.loads(attrs)
        paper = attributes(data["paper"]) if data.get("paper") is not None else {}
        yield result_row(data, paper, [(key, target, attributes(target)) for key, target in json.loads(refs)])
