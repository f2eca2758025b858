"""The rows of a graph produced one at a time, for loads that must not hold the graph.

:func:`write_neo4j <kg.export.neo4j.load.write_neo4j>` and
:func:`~kg.export.neo4j_bulk.write_bulk_csv` read a :class:`RowSource`: the node rows, then
the relationship rows, in passes they may repeat (a survey, then the writing). Over a
:class:`~kg.graphstore.SortedGraph` (a build's ``graph.json`` read by
:class:`kg.node_link.NodeLinkFile`) each pass reads the graph again and no pass holds it;
what stays in memory is one map, every node id to its label, because a relationship row
names the labels of both its ends (the ``MATCH`` uses their id index; the bulk files group
by them). Rows come in the graph's order: nodes by id, edges by (source, target, key).

>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("paper:1", label="Paper", name="A paper")
>>> g.add_node("entity:mnist", label="Dataset", name="MNIST")
>>> g.add_edge("paper:1", "entity:mnist", key="MENTIONS", type="MENTIONS", count=1)
'MENTIONS'
>>> source = row_source(g)
>>> [label for label, _ in source.iter_nodes()]
['Dataset', 'Paper']
>>> [group for group, _ in source.iter_relationships()]
[('MENTIONS', 'Paper', 'Dataset')]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import networkx as nx

from kg.export.neo4j.rows import Group, Rows, node_row, relationship_row
from kg.graphstore import SortedGraph, sorted_graph

__all__ = ["RowSource", "StreamedRows", "row_source"]

Row = dict[str, Any]


class RowSource(Protocol):
    """What a load reads: :class:`StreamedRows`, or :class:`~kg.export.neo4j.rows.Rows` held in memory."""

    def iter_nodes(self, *, warn: bool = True) -> Iterator[tuple[str, Row]]: ...

    def iter_relationships(self, *, warn: bool = True) -> Iterator[tuple[Group, Row]]: ...


class StreamedRows:
    """The rows of a sorted graph, made again on every pass; holds only the id -> label map.

    The map is filled by the first whole pass over the nodes, which
    :meth:`iter_relationships` needs first. ``warn=False`` on a repeated pass keeps the
    warnings about left-out attributes to one each.
    """

    def __init__(self, graph: SortedGraph) -> None:
        self.graph = graph
        self.labels: dict[str, str] = {}
        self._labelled = False

    def iter_nodes(self, *, warn: bool = True) -> Iterator[tuple[str, Row]]:
        for node, attrs in self.graph.nodes():
            label, row = node_row(node, attrs, warn=warn)
            if not self._labelled:
                self.labels[row["id"]] = label
            yield label, row
        self._labelled = True

    def iter_relationships(self, *, warn: bool = True) -> Iterator[tuple[Group, Row]]:
        if not self._labelled:
            raise RuntimeError("iter_nodes() must run to its end first: relationship rows need every node's label")
        for src, dst, key, attrs in self.graph.edges():
            yield relationship_row(src, dst, key, attrs, self.labels, warn=warn)


def row_source(graph: nx.MultiDiGraph | SortedGraph | Rows) -> RowSource:
    """Rows as they are; a networkx graph or a store or ``graph.json`` as :class:`StreamedRows`."""
    if isinstance(graph, Rows):
        return graph
    return StreamedRows(sorted_graph(graph))
