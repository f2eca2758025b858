"""Communities of the co-occurrence network, with readable labels, and centrality.

Communities are Louvain communities (Blondel et al. 2008) of the weighted
co-occurrence network, from ``networkx.community.louvain_communities`` with a
fixed seed, so the same graph gives the same communities. A community is
named after the three members with the most co-occurrences inside it (ties:
papers, then name), e.g. ``GNN · contrastive learning · representation
learning``: a term met everywhere ("accuracy") has most of its co-occurrences
outside any one community, so it names a community less often than by paper
count. Entities flagged ``generic`` are not used as names (unless every member is).

Centrality, on the same network: ``degree`` (how many entities it meets),
``strength`` (total co-occurrence count), ``betweenness`` (the share of shortest
paths through it, unweighted; estimated from ``k`` = 100 sources drawn with a
fixed seed when the network has more than 1,000 nodes): high betweenness marks entities that
bridge otherwise separate parts of the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

__all__ = ["Community", "centrality", "detect_communities"]


@dataclass
class Community:
    """One community: its 1-based number, members (most studied first) and label."""

    id: int
    members: list[str]
    label: str
    papers: int = 0
    by_type: dict[str, int] = field(default_factory=dict)


def detect_communities(
    network: nx.Graph,
    *,
    seed: int = 42,
    resolution: float = 1.0,
    weight: str = "weight",
    min_size: int = 2,
    label_size: int = 3,
    paper_sets: dict[str, set] | None = None,
) -> list[Community]:
    """Louvain communities of ``network`` with at least ``min_size`` members, largest first.

    Sets a ``community`` attribute (the community's number, 0 for none) on every node.
    ``paper_sets`` (entity -> papers) lets each community count the papers it covers.

    >>> g = nx.Graph()
    >>> g.add_weighted_edges_from([("a", "b", 3), ("b", "c", 3), ("a", "c", 3), ("x", "y", 3), ("c", "x", 1)])
    >>> for n in g: g.nodes[n].update(name=n, label="Method", paper_count=1)
    >>> [c.members for c in detect_communities(g)]  # most studied first: c has the most link strength
    [['c', 'a', 'b'], ['x', 'y']]
    """
    ordered = nx.Graph()
    ordered.add_nodes_from(sorted(network.nodes(data=True), key=lambda n: str(n[0])))
    ordered.add_edges_from(sorted(network.edges(data=True), key=lambda e: (str(e[0]), str(e[1]))))
    parts = nx.community.louvain_communities(ordered, weight=weight, resolution=resolution, seed=seed) if len(ordered) else []
    strength = dict(network.degree(weight=weight))

    def rank(node):
        data = network.nodes[node]
        return (-int(data.get("paper_count") or 0), -strength.get(node, 0), str(data.get("name") or node))

    groups = [sorted(part, key=rank) for part in parts if len(part) >= min_size]
    groups.sort(key=lambda members: (-len(members), rank(members[0])))
    for node in network:
        network.nodes[node]["community"] = 0
    communities = []
    for number, members in enumerate(groups, start=1):
        by_type: dict[str, int] = {}
        for node in members:
            network.nodes[node]["community"] = number
            label = network.nodes[node].get("label", "")
            by_type[label] = by_type.get(label, 0) + 1
        papers = len(set().union(*(paper_sets.get(n, set()) for n in members))) if paper_sets else 0
        label = " · ".join(str(network.nodes[n].get("name") or n) for n in _namers(network, members, weight)[:label_size])
        communities.append(Community(number, members, label, papers, by_type))
    return communities


def _namers(network: nx.Graph, members: list, weight: str) -> list:
    """Members by co-occurrences inside their community (``members`` is already in rank order)."""
    inside = set(members)
    within = {n: sum(d.get(weight, 1) for m, d in network[n].items() if m in inside) for n in members}
    specific = [n for n in members if not network.nodes[n].get("generic")] or members
    return sorted(specific, key=lambda n: -within[n])  # a stable sort keeps the rank order for ties


def centrality(network: nx.Graph, *, weight: str = "weight", seed: int = 42, k: int = 100) -> dict[str, dict]:
    """``{node: {"degree", "strength", "betweenness"}}`` on ``network`` (see the module doc)."""
    if len(network) == 0:
        return {}
    sample = k if len(network) > 1000 else None
    between = nx.betweenness_centrality(network, k=sample, seed=seed if sample else None, normalized=True)
    strength = dict(network.degree(weight=weight))
    return {
        node: {"degree": network.degree(node), "strength": strength[node], "betweenness": between[node]}
        for node in network
    }
