"""The research map's analysis: everything the report says, computed once into a :class:`MapResult`.

The renderers (:mod:`~kg.analyse.report.figures`, :mod:`~kg.analyse.report.document`,
:mod:`~kg.analyse.report.tables`, :mod:`~kg.analyse.report.networks`) only draw and
write what is here; none of them computes a statistic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg.analyse.communities import Community, centrality, detect_communities
from kg.analyse.cooccurrence import PAIR_NETWORKS, cooccurrence_network
from kg.analyse.leaderboard import Board, leaderboards, result_rows
from kg.analyse.load import ENTITY_LABELS
from kg.analyse.termmap import default_min_papers, term_network
from kg.analyse.trends import (
    Burst,
    NewEntities,
    Shift,
    Trend,
    bursts,
    entity_years,
    new_entities,
    papers_by_venue,
    papers_by_year,
    rising_and_falling,
    top_by_venue,
    venue_emphasis,
    venue_year_confounded,
)
from kg.viz.static import field_title

__all__ = ["TREND_MIN_PAPERS", "Z_THRESHOLD", "MapResult", "analyse_map", "top_entities", "without_generic",
           "year_span"]

#: Threshold and minimum papers of the trend tests (see kg.analyse.trends).
Z_THRESHOLD = 3.0
TREND_MIN_PAPERS = 5
#: Entities whose share of each year's papers the trends figure draws.
TREND_LINES = 8


@dataclass
class MapResult:
    """What :func:`research_map` found and wrote.

    ``papers`` to ``title`` answer the map's questions; ``field_name`` (the name the
    figures and the term map carry) to ``boards`` are what the report needs besides;
    ``outputs`` lists the files written (empty when nothing was).
    """

    papers: int
    top: dict[str, list[dict]]
    network: nx.Graph
    communities: list[Community]
    centrality: dict[str, dict]
    pair_networks: dict[str, nx.Graph]
    per_year: dict[int, int]
    per_venue: dict[str, int]
    bursts: list[Burst]
    positions: dict = field(default_factory=dict)
    trend: Trend | None = None
    new_entities: list[NewEntities] = field(default_factory=list)
    venue_emphasis: dict[str, list[Shift]] = field(default_factory=dict)
    venue_tested: int = 0
    confounded: dict[str, int] | None = None
    title: str = ""
    outputs: dict[str, Path] = field(default_factory=dict)
    field_name: str = ""
    min_papers: int = 1
    entity_counts: dict[str, int] = field(default_factory=dict)
    #: entity name -> year -> share of that year's papers, for the most mentioned entities
    year_shares: dict[str, dict[int, float]] = field(default_factory=dict)
    #: venue -> its most mentioned entities (id, papers), when there are two venues or more
    venue_leaders: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    results: list[dict] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)


def year_span(years) -> str:
    """The years as the report says them.

    >>> year_span([2021, 2019, 2020]), year_span([2024]), year_span([])
    ('2019–2021', '2024', 'no years given')
    """
    years = sorted(years)
    if not years:
        return "no years given"
    return str(years[0]) if len(years) == 1 else f"{years[0]}–{years[-1]}"


def top_entities(graph: nx.MultiDiGraph, limit: int = 10) -> dict[str, list[dict]]:
    """The ``limit`` entities of each type mentioned by most papers (ties: name)."""
    out: dict[str, list[dict]] = {}
    for label in ENTITY_LABELS:
        members = [(n, d) for n, d in graph.nodes(data=True) if d.get("label") == label]
        members.sort(key=lambda item: (-int(item[1].get("paper_count") or 0), str(item[1].get("name"))))
        out[label] = [
            {
                "id": node, "name": str(data.get("name") or node), "type": label,
                "papers": int(data.get("paper_count") or 0), "proposed_by": len(data.get("proposed_by") or ()),
                "catalogue_id": data.get("catalogue_id") or "",
            }
            for node, data in members[:limit]
        ]
    return out


def without_generic(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """``graph`` without the entities flagged ``generic`` (the same graph when none is)."""
    generic = [n for n, d in graph.nodes(data=True) if d.get("generic") and d.get("label") in ENTITY_LABELS]
    if not generic:
        return graph
    kept = graph.copy()
    kept.remove_nodes_from(generic)
    return kept


def analyse_map(
    graph: nx.MultiDiGraph,
    *,
    title: str | None = None,
    top: int = 10,
    min_papers: int | None = None,
    seed: int = 42,
) -> MapResult:
    """The map of ``graph`` (generic entities already left out, or kept, by the caller).

    ``min_papers`` defaults to 1 below 200 papers and 2 from there on; ``title`` to
    "Research map: " and the venues and years of the papers.
    """
    name = title or field_title(graph)
    papers = sum(1 for _, d in graph.nodes(data=True) if d.get("label") == "Paper")
    if min_papers is None:
        min_papers = default_min_papers(papers)
    network, communities, positions = term_network(graph, min_papers=min_papers, seed=seed)
    central = centrality(network, seed=seed)
    for node, values in central.items():
        network.nodes[node].update(values)
    pairs = {pair: _pair_network(graph, rows, cols, min_papers, seed) for pair, (rows, cols) in PAIR_NETWORKS.items()}
    per_year, per_venue = papers_by_year(graph), papers_by_venue(graph)
    emphasis, venue_tested = venue_emphasis(graph, threshold=Z_THRESHOLD, min_papers=TREND_MIN_PAPERS)
    results = result_rows(graph)
    return MapResult(
        papers=papers, top=top_entities(graph, top), network=network, communities=communities,
        centrality=central, pair_networks=pairs, per_year=per_year, per_venue=per_venue,
        bursts=bursts(graph, threshold=Z_THRESHOLD), positions=positions,
        trend=rising_and_falling(graph, threshold=Z_THRESHOLD, min_papers=TREND_MIN_PAPERS),
        new_entities=new_entities(graph), venue_emphasis=emphasis, venue_tested=venue_tested,
        confounded=venue_year_confounded(graph), title=title or f"Research map: {name}", field_name=name,
        min_papers=min_papers, entity_counts=_entity_counts(graph),
        year_shares=_year_shares(graph, per_year) if len(per_year) >= 2 else {},
        venue_leaders=top_by_venue(graph) if len(per_venue) >= 2 else {},
        results=results, boards=leaderboards(results),
    )


def _pair_network(graph: nx.MultiDiGraph, rows, cols, min_papers: int, seed: int) -> nx.Graph:
    """The co-occurrence network of two entity types: entities that link, in communities
    (the clusters of its VOSviewer map)."""
    pair = cooccurrence_network(graph, rows, cols, min_papers=min_papers)
    pair.remove_nodes_from([n for n in list(pair) if pair.degree(n) == 0])
    detect_communities(pair, seed=seed)
    return pair


def _entity_counts(graph: nx.MultiDiGraph) -> dict[str, int]:
    return {label: sum(1 for _, d in graph.nodes(data=True) if d.get("label") == label) for label in ENTITY_LABELS}


def _year_shares(graph: nx.MultiDiGraph, per_year: dict[int, int]) -> dict[str, dict[int, float]]:
    """The share of each year's papers that mention each of the most mentioned entities."""
    years = entity_years(graph)
    leaders = sorted((n for n in years if graph.nodes[n].get("label") in ENTITY_LABELS),
                     key=lambda n: (-sum(years[n].values()), str(graph.nodes[n].get("name"))))[:TREND_LINES]
    return {str(graph.nodes[n].get("name")): {y: years[n].get(y, 0) / c for y, c in per_year.items()}
            for n in leaders}
