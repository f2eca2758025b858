"""The network a term map draws: entities that co-occur, their communities and their places.

Shared by ``kg map`` (the interactive page and the figure, :mod:`kg.viz.termmap`,
:func:`kg.viz.static.draw_term_map`) and ``kg viz`` (whose overview of a large
graph is the term map's picture): the co-occurrence network of all entity
types, entities in fewer than ``min_papers`` papers and entities meeting no
other left out, Louvain communities, and positions from a force layout in
which two entities attract in proportion to the papers they share.
"""

from __future__ import annotations

import networkx as nx

from kg.analyse.communities import Community, detect_communities
from kg.analyse.cooccurrence import cooccurrence_network, paper_entities
from kg.analyse.load import ENTITY_LABELS
from kg.viz.layout import force_layout

__all__ = ["default_min_papers", "term_network"]


def default_min_papers(papers: int) -> int:
    """1 below 200 papers, 2 from there on: on a large field, one-paper entities are mostly noise."""
    return 1 if papers < 200 else 2


def term_network(
    graph: nx.MultiDiGraph, *, min_papers: int | None = None, seed: int = 42,
) -> tuple[nx.Graph, list[Community], dict]:
    """``(network, communities, positions)`` of the entities of ``graph`` (see the module doc)."""
    if min_papers is None:
        min_papers = default_min_papers(sum(1 for _, d in graph.nodes(data=True) if d.get("label") == "Paper"))
    entity_papers: dict[str, set] = {}
    for paper, entities in paper_entities(graph).items():
        for entity in entities:
            entity_papers.setdefault(entity, set()).add(paper)
    network = cooccurrence_network(graph, ENTITY_LABELS, min_papers=min_papers)
    network.remove_nodes_from([n for n in list(network) if network.degree(n) == 0])
    communities = detect_communities(network, seed=seed, paper_sets=entity_papers)
    positions = force_layout(network, seed=seed, weight="weight") if len(network) else {}
    return network, communities, positions
