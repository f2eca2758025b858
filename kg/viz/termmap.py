"""The interactive term map: one self-contained, offline HTML page of a field's entities.

As in VOSviewer's term maps, only entities are drawn (no paper or result
nodes), placed by co-occurrence (:func:`kg.viz.layout.force_layout` with
attraction by papers shared), coloured by community and sized by paper count.
The page (``assets/termmap.js``) names entities by priority without overlap at
any zoom (``assets/labels.js``), shows a density view, overlays by average
year and by venue, and, for a clicked entity, its papers with the sentence
that mentions it. It inlines sigma.js and graphology like :mod:`kg.viz.html`
and fetches nothing.

The payload keeps the page small enough for a 5,800-paper field: entities are
records with short keys, papers are listed once (title, year, venue, url, the
clean abstract of :mod:`kg.viz.text`) and an entity points at them by index
with the span of its first mention; only links shared by at least two papers
are drawn (the strongest ``link_limit``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import networkx as nx

from kg import __version__
from kg.schema import ENTITY_LABELS, MENTION_EDGES
from kg.builddir import atomic_open
from kg.viz.html import TYPE_COLOURS, render_page
from kg.viz.static import community_colour
from kg.viz.text import readable

__all__ = ["render_term_map", "term_map_payload", "write_term_map"]

#: The most links drawn; more would only grey the map (VOSviewer's default is 1,000).
LINK_LIMIT = 4000
#: Entities listed as "often with" an entity in its panel.
RELATED = 8


def term_map_payload(
    graph: nx.MultiDiGraph,
    network: nx.Graph,
    positions: dict,
    communities=(),
    *,
    title: str = "Term map",
    min_papers: int = 1,
    link_limit: int = LINK_LIMIT,
) -> dict:
    """The data the page draws (see the module doc).

    ``network``: the co-occurrence network (nodes with ``name``, ``label``, ``paper_count``,
    ``community``); ``positions``: ``{entity: (x, y)}``; ``graph``: the built graph, for
    papers, years, venues, aliases, the ``generic`` flag and mention spans.
    """
    entity_ids = sorted(network, key=str)
    index = {node: i for i, node in enumerate(entity_ids)}
    mentions = _first_mentions(graph, index)
    paper_ids = _paper_order(graph, mentions)
    paper_index = {paper: i for i, paper in enumerate(paper_ids)}
    years, venues = _years_and_venues(graph, paper_ids)
    texts = {paper: readable(str(graph.nodes[paper].get("abstract") or "")) for paper in paper_ids}
    papers = [_paper_record(graph.nodes[paper], paper, texts[paper]) for paper in paper_ids]

    scale = max((max(abs(x), abs(y)) for x, y in positions.values()), default=1.0) or 1.0
    entities = []
    for node in entity_ids:
        spans = sorted(mentions[node], key=lambda m: paper_index[m[0]])
        x, y = positions.get(node, (0.0, 0.0))
        record = _entity_record(network, node, (x / scale, y / scale), index)
        record["m"] = [[paper_index[p], *texts[p].span(s, e), 1 if proposed else 0] for p, s, e, proposed in spans]
        record.update(_entity_extras(graph, node, spans, years, venues))
        record["r"] = _related(network, node, index)
        entities.append(record)

    links = _strongest_links(network, index, link_limit)
    type_counts = Counter(data.get("label") for _, data in network.nodes(data=True))
    venue_papers = Counter(papers[i].get("v") for i in range(len(papers)))
    return {
        "meta": {
            "title": title, "generator": f"kg {__version__}", "papers": len(papers),
            "graph_papers": _paper_total(graph),
            "entities": len(entities), "links": len(links), "min_papers": min_papers,
            "years": years, "venues": venues,
            "venue_share": [venue_papers[v] / len(papers) for v in venues] if papers else [],
        },
        "types": [{"type": label, "color": TYPE_COLOURS[label], "count": type_counts[label]}
                  for label in ENTITY_LABELS if type_counts.get(label)],
        "communities": [{"id": c.id, "label": c.label, "size": len(c.members), "color": community_colour(c.id)}
                        for c in communities],
        "entities": entities,
        "papers": papers,
        "links": links,
    }


def _first_mentions(graph: nx.MultiDiGraph, index: dict) -> dict[str, list[tuple[str, int, int, bool]]]:
    """Per drawn entity, ``(paper, start, end, proposed)`` of its earliest mention in each paper."""
    mentions: dict[str, list[tuple[str, int, int, bool]]] = {node: [] for node in index}
    for paper, data in graph.nodes(data=True):
        if data.get("label") != "Paper":
            continue
        for _, entity, key, edge in graph.out_edges(paper, keys=True, data=True):
            if entity in index and key in MENTION_EDGES:
                first = min(edge.get("mentions") or [{"start": 0, "end": 0}], key=lambda m: m["start"])
                mentions[entity].append((paper, first["start"], first["end"], key == "PROPOSES"))
    return mentions


def _paper_order(graph: nx.MultiDiGraph, mentions: dict) -> list:
    """The papers that mention a drawn entity, newest first, then by title."""
    return sorted({m[0] for spans in mentions.values() for m in spans},
                  key=lambda p: (-(graph.nodes[p].get("year") or 0), str(graph.nodes[p].get("title") or p)))


def _years_and_venues(graph: nx.MultiDiGraph, paper_ids: list) -> tuple[list[int], list[str]]:
    """The years of the papers in order, and their venues from the most papers down."""
    years = sorted({int(graph.nodes[p]["year"]) for p in paper_ids if graph.nodes[p].get("year") is not None})
    venues = [v for v, _ in Counter(str(graph.nodes[p].get("venue")) for p in paper_ids
                                     if graph.nodes[p].get("venue")).most_common()]
    return years, venues


def _paper_total(graph: nx.MultiDiGraph) -> int:
    """All papers of the graph, drawn or not."""
    return sum(1 for _, d in graph.nodes(data=True) if d.get("label") == "Paper")


def _paper_record(data: dict, paper, text) -> dict:
    """A paper as the page lists it: title and clean abstract, then year, venue and url when known."""
    record = {"t": str(data.get("title") or data.get("name") or paper), "a": text.text}
    if data.get("year") is not None:
        record["y"] = int(data["year"])
    for short, field in (("v", "venue"), ("u", "url")):
        if data.get(field):
            record[short] = str(data[field])
    return record


def _entity_record(network: nx.Graph, node, place: tuple[float, float], index: dict) -> dict:
    """The core of an entity's record: id, name, type, papers, community and scaled position."""
    data = network.nodes[node]
    return {
        "id": str(node), "n": str(data.get("name") or node), "t": data.get("label"),
        "p": int(data.get("paper_count") or 0), "c": int(data.get("community") or 0),
        "x": round(place[0], 5), "y": round(place[1], 5),
    }


def _entity_extras(graph: nx.MultiDiGraph, node, spans: list, years: list, venues: list) -> dict:
    """Counts per year and venue (when there are any to compare), aliases and the generic flag."""
    source, extras = graph.nodes[node], {}
    if years:
        per_year = Counter(graph.nodes[p].get("year") for p, *_ in spans)
        extras["yr"] = [per_year.get(year, 0) for year in years]
    if len(venues) > 1:
        per_venue = Counter(graph.nodes[p].get("venue") for p, *_ in spans)
        extras["vn"] = [per_venue.get(venue, 0) for venue in venues]
    if source.get("aliases"):
        extras["al"] = [str(a) for a in source["aliases"]]
    if source.get("generic"):
        extras["g"] = 1
    return extras


def _related(network: nx.Graph, node, index: dict) -> list[list[int]]:
    """The entities most often with ``node``: ``[index, papers shared]``, heaviest first."""
    related = sorted(network[node].items(), key=lambda item: (-item[1].get("weight", 1), str(item[0])))
    return [[index[other], int(link.get("weight", 1))] for other, link in related[:RELATED]]


def _strongest_links(network: nx.Graph, index: dict, limit: int) -> list[list[int]]:
    """The ``limit`` heaviest links shared by at least two papers, as sorted ``[i, j, weight]``."""
    strongest = sorted(
        ((a, b, d) for a, b, d in network.edges(data=True) if d.get("weight", 1) >= 2),
        key=lambda e: (-e[2]["weight"], -e[2].get("association_strength", 0.0), str(e[0]), str(e[1])),
    )[:limit]
    return sorted([min(index[a], index[b]), max(index[a], index[b]), int(d["weight"])] for a, b, d in strongest)


def render_term_map(payload: dict) -> str:
    """The complete page for ``payload`` (see :func:`term_map_payload`)."""
    return render_page(payload, template="termmap.html", styles=("viewer.css", "termmap.css"),
                       scripts=("graphology.umd.min.js", "sigma.min.js", "labels.js", "termmap.js"))


def write_term_map(path: str | Path, payload: dict) -> Path:
    """Write the page of ``payload`` to ``path``; returns the path."""
    with atomic_open(path) as handle:
        handle.write(render_term_map(payload))
    return Path(path)
