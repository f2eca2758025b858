"""The network a term map draws: entities that co-occur, their communities and their places.

Shared by ``kg map`` (the interactive page and the figure, :mod:`kg.viz.termmap`,
:func:`kg.viz.static.draw_term_map`) and ``kg viz`` (whose overview of a large
graph is the term map's picture): the co-occurrence network of all entity
types, entities in fewer than ``min_papers`` papers and entities meeting no
other left out, Louvain communities, and positions from a force layout in
which two entities attract in proportion to the papers they share.

A force layout pushes the few entities that hang on the rest by one weak link
far out (the whole field repels them; one shared paper holds them), which would
shrink everything else into a corner of the picture. Past the radius of 99% of
the entities, distances from the centre are therefore compressed into a thin
rim (:func:`pull_in`): directions and the order of distances are kept.
"""

from __future__ import annotations

import math

import networkx as nx

from kg.analyse.communities import Community, detect_communities
from kg.analyse.cooccurrence import cooccurrence_network, paper_entities
from kg.analyse.load import ENTITY_LABELS
from kg.viz.layout import force_layout

__all__ = ["default_min_papers", "pull_in", "term_network"]


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
    positions = pull_in(force_layout(network, seed=seed, weight="weight")) if len(network) else {}
    return network, communities, positions


def pull_in(positions: dict, *, share: float = 0.99, rim: float = 0.12) -> dict:
    """Positions whose distance from the centre beyond that of ``share`` of them is compressed
    into a rim ``rim`` times that radius wide; scaled so that the largest coordinate is 1.

    >>> pos = pull_in({i: (i / 100, 0.0) for i in range(100)} | {"far": (40.0, 0.0)})
    >>> pos["far"][0], round(pos[99][0], 3)  # the outlier sits just past the rest, not 80 times as far
    (1.0, 0.875)
    """
    if len(positions) < 3:
        return dict(positions)
    xs = sorted(x for x, _ in positions.values())
    ys = sorted(y for _, y in positions.values())
    cx, cy = xs[len(xs) // 2], ys[len(ys) // 2]
    radii = sorted(math.hypot(x - cx, y - cy) for x, y in positions.values())
    limit = radii[min(len(radii) - 1, int(share * len(radii)))] or 1.0
    moved = {}
    for node, (x, y) in positions.items():
        r = math.hypot(x - cx, y - cy)
        if r > limit:
            scale = limit * (1 + rim * (1 - math.exp(-(r - limit) / limit))) / r
            x, y = cx + (x - cx) * scale, cy + (y - cy) * scale
        moved[node] = (x - cx, y - cy)
    largest = max(max(abs(x), abs(y)) for x, y in moved.values()) or 1.0
    return {node: (x / largest, y / largest) for node, (x, y) in moved.items()}
