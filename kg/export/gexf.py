"""GEXF 1.2 for Gephi: the whole graph, or a network drawn from it (``kg map`` writes both).

:func:`to_gexf_graph` makes a copy GEXF can hold and Gephi shows well: the node's type becomes
``type`` and its name the label, lists become JSON strings, parallel edges of a multigraph
become one edge with their ``types`` and ``weight``; positions and colours, when given, go
into Gephi's ``viz`` attributes. XML 1.0 cannot hold most control characters, so ids and
values lose them (:func:`kg.export.files.xml_text`).

Examples
--------
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("entity:a", label="Method", name="A")
>>> _ = g.add_edge("entity:a", "entity:a", key="USES", type="USES")
>>> _ = g.add_edge("entity:a", "entity:a", key="EXTENDS", type="EXTENDS")
>>> to_gexf_graph(g).edges["entity:a", "entity:a"]
{'types': 'EXTENDS;USES', 'weight': 2}
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from kg.builddir import atomic_open
from kg.export.files import xml_text

__all__ = ["to_gexf_graph", "write_gexf"]


def _scalar(value):
    """A GEXF attribute value: lists as JSON, strings without characters XML cannot hold."""
    if isinstance(value, (list, tuple, dict)):
        return xml_text(json.dumps(value, ensure_ascii=False))
    return xml_text(value)


def _clean(text) -> str:
    return " ".join(str(text).split())


def _viz(node, data: dict, positions: dict | None, colours: dict | None) -> dict:
    """Gephi's ``viz`` of a node: its position scaled by 1000, the colour of its type."""
    viz = {}
    if positions and node in positions:
        x, y = positions[node]
        viz["position"] = {"x": float(x) * 1000, "y": float(y) * 1000, "z": 0.0}
    colour = (colours or {}).get(data.get("label"))
    if colour:
        viz["color"] = {"r": int(colour[1:3], 16), "g": int(colour[3:5], 16), "b": int(colour[5:7], 16), "a": 1.0}
    return viz


def _node_attributes(node, data: dict, positions: dict | None, colours: dict | None) -> dict:
    """A node's GEXF attributes: ``label`` as ``type``, the clean name as ``label``, and ``viz``."""
    attrs = {}
    for key, value in data.items():
        if value is None or key in ("viz",):
            continue
        attrs["type" if key == "label" else key] = _scalar(value)
    attrs["label"] = xml_text(_clean(data.get("name") or node))
    attrs.pop("name", None)
    viz = _viz(node, data, positions, colours)
    if viz:
        attrs["viz"] = viz
    return attrs


def _sorted_edges(graph: nx.Graph) -> list[tuple]:
    """``(u, v, key, data)`` of every edge (key ``None`` outside multigraphs), sorted as text."""
    if graph.is_multigraph():
        edges = graph.edges(keys=True, data=True)
    else:
        edges = ((u, v, None, d) for u, v, d in graph.edges(data=True))
    return sorted(edges, key=lambda e: (str(e[0]), str(e[1]), str(e[2])))


def _edge_attributes(data: dict, kind: str | None, multigraph: bool) -> dict:
    """An edge's GEXF attributes: none of ``type``, ``mentions``, ``evidence``; ``types`` and
    ``weight`` of a multigraph's edge."""
    attrs = {}
    for name, value in data.items():
        if value is None or name in ("type", "mentions", "evidence"):
            continue
        attrs[name] = _scalar(value)
    if multigraph:
        attrs["types"] = kind or ""
        attrs["weight"] = 1
    return attrs


def to_gexf_graph(graph: nx.Graph, *, positions: dict | None = None, colours: dict | None = None) -> nx.Graph:
    """A copy of ``graph`` that GEXF can hold and Gephi shows well.

    The node's type (our ``label``) becomes ``type`` and its ``name`` the GEXF label;
    lists become JSON strings and ``None`` values are left out; parallel edges of a
    multigraph become one edge with ``types`` (``;``-joined) and ``weight`` (their
    number). With ``positions`` / ``colours`` (type -> ``#rrggbb``) nodes get Gephi's
    ``viz`` position and colour.
    """
    simple = nx.DiGraph() if graph.is_directed() else nx.Graph()
    for node, data in sorted(graph.nodes(data=True), key=lambda n: str(n[0])):
        simple.add_node(xml_text(str(node)), **_node_attributes(node, data, positions, colours))
    multigraph = graph.is_multigraph()
    for u, v, key, data in _sorted_edges(graph):
        u, v = xml_text(str(u)), xml_text(str(v))
        kind = xml_text(str(data.get("type", key))) if (key is not None or "type" in data) else None
        if simple.has_edge(u, v) and multigraph:
            existing = simple.edges[u, v]
            existing["types"] = ";".join(sorted(set(existing["types"].split(";")) | {kind}))
            existing["weight"] += 1
            continue
        simple.add_edge(u, v, **_edge_attributes(data, kind, multigraph))
    return simple


def write_gexf(graph: nx.Graph, path: str | Path, **kwargs) -> Path:
    """Write ``graph`` as GEXF 1.2 (see :func:`to_gexf_graph` for ``positions`` / ``colours``)."""
    with atomic_open(path, "wb") as handle:
        nx.write_gexf(to_gexf_graph(graph, **kwargs), handle, encoding="utf-8", version="1.2draft")
    return Path(path)
