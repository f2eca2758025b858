"""Which entities appear in the same papers: co-occurrence networks and their normalisation.

Two entities co-occur once for every paper that mentions (or proposes) both.
The raw count ``c_ij`` favours frequent entities, so, as VOSviewer does, links
are normalised by *association strength* (van Eck & Waltman 2009, "How to
normalize co-occurrence data?", JASIST 60(8); van Eck & Waltman 2014,
"Visualizing bibliometric networks"):

.. math::

    s_{ij} = \\frac{2 m \\, c_{ij}}{k_i \\, k_j}

with ``k_i = sum_j c_ij`` the total co-occurrence count (link strength) of
``i`` in the network and ``m = sum_{i<j} c_ij`` the total over all links.
``k_i k_j / 2m`` is the number of co-occurrences expected if ``i`` and ``j``
met at random given their totals, so ``s_ij`` is observed / expected:
above 1 they meet more often than chance, below 1 less.

Examples
--------
>>> import networkx as nx
>>> g = nx.Graph()
>>> g.add_edge("a", "x", weight=2); g.add_edge("a", "y", weight=1); g.add_edge("b", "y", weight=1)
>>> _ = association_strength(g)
>>> round(g["a"]["x"]["association_strength"], 3), g["b"]["y"]["association_strength"]
(2.667, 4.0)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import combinations

import networkx as nx

from kg.schema import ENTITY_LABELS, MENTION_EDGES

__all__ = [
    "PAIR_NETWORKS",
    "association_strength",
    "cooccurrence_network",
    "paper_entities",
    "top_links",
]

#: The cross-type networks ``kg map`` reports: name -> (row types, column types).
PAIR_NETWORKS = {
    "dataset-method": (("Dataset",), ("Method",)),
    "method-task": (("Method",), ("Task",)),
    "model-dataset": (("Model",), ("Dataset",)),
}


def paper_entities(graph: nx.MultiDiGraph) -> dict[str, dict[str, bool]]:
    """``{paper id: {entity id: proposed?}}`` from the ``PROPOSES`` / ``MENTIONS`` edges."""
    out: dict[str, dict[str, bool]] = {}
    for node, data in graph.nodes(data=True):
        if data.get("label") != "Paper":
            continue
        entities = out.setdefault(node, {})
        for _, target, key in graph.out_edges(node, keys=True):
            if key in MENTION_EDGES and graph.nodes[target].get("label") in ENTITY_LABELS:
                entities[target] = entities.get(target, False) or key == "PROPOSES"
    return out


def cooccurrence_network(
    graph: nx.MultiDiGraph,
    row_types: Iterable[str] = ENTITY_LABELS,
    col_types: Iterable[str] | None = None,
    *,
    min_papers: int = 1,
) -> nx.Graph:
    """The undirected co-occurrence network of the entities of ``row_types`` (with ``col_types``).

    Without ``col_types`` every pair of entities of ``row_types`` may link; with it, only
    pairs of one row-type and one column-type entity (e.g. datasets x methods). Entities
    in fewer than ``min_papers`` papers are left out. Nodes carry ``name``, ``label``,
    ``paper_count``; links carry ``weight`` (papers with both) and ``association_strength``.
    Nodes and links are added in id order, so the result does not depend on input order.
    """
    rows = set(row_types)
    cols = set(col_types) if col_types is not None else None
    kept = set(rows | (cols or set()))
    network = nx.Graph()
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        if data.get("label") in kept and int(data.get("paper_count") or 0) >= min_papers:
            network.add_node(
                node, name=str(data.get("name") or node), label=data["label"],
                paper_count=int(data.get("paper_count") or 0),
            )
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for entities in paper_entities(graph).values():
        present = sorted(e for e in entities if e in network)
        for a, b in combinations(present, 2):
            if _allowed(network.nodes[a]["label"], network.nodes[b]["label"], rows, cols):
                counts[a, b] += 1
    for (a, b), count in sorted(counts.items()):
        network.add_edge(a, b, weight=count)
    return association_strength(network)


def _allowed(label_a: str, label_b: str, rows: set, cols: set | None) -> bool:
    if cols is None:
        return label_a in rows and label_b in rows
    return (label_a in rows and label_b in cols) or (label_a in cols and label_b in rows)


def association_strength(network: nx.Graph, weight: str = "weight") -> nx.Graph:
    """Set ``association_strength = 2 m c_ij / (k_i k_j)`` on every link (in place); returns it."""
    strength = dict(network.degree(weight=weight))
    total = network.size(weight=weight)
    for a, b, data in network.edges(data=True):
        denominator = strength[a] * strength[b]
        data["association_strength"] = 2 * total * data[weight] / denominator if denominator else 0.0
    return network


def top_links(network: nx.Graph, limit: int = 15, *, min_weight: int = 1) -> list[dict]:
    """The strongest links: by association strength, then papers, then names."""
    rows = []
    for a, b, data in network.edges(data=True):
        if data["weight"] < min_weight:
            continue
        first, second = sorted((a, b), key=lambda n: (network.nodes[n]["label"], network.nodes[n]["name"]))
        rows.append({
            "source": first, "target": second,
            "source_name": network.nodes[first]["name"], "source_type": network.nodes[first]["label"],
            "target_name": network.nodes[second]["name"], "target_type": network.nodes[second]["label"],
            "papers": data["weight"], "association_strength": data["association_strength"],
        })
    rows.sort(key=lambda r: (-r["association_strength"], -r["papers"], r["source_name"], r["target_name"]))
    return rows[:limit]
