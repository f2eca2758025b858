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
    mentions: dict[str, list[tuple[str, int, int, bool]]] = {node: [] for node in entity_ids}
    for paper, data in graph.nodes(data=True):
        if data.get("label") != "Paper":
            continue
        for _, entity, key, edge in graph.out_edges(paper, keys=True, data=True):
            if entity in index and key in MENTION_EDGES:
                first = min(edge.get("mentions") or [{"start": 0, "end": 0}], key=lambda m: m["start"])
                mentions[entity].append((paper, first["start"], first["end"], key == "PROPOSES"))
    paper_ids = sorted({m[0] for spans in mentions.values() for m in spans},
                       key=lambda p: (-(graph.nodes[p].get("year") or 0), str(graph.nodes[p].get("title") or p)))
    paper_index = {paper: i for i, paper in enumerate(paper_ids)}
    years = sorted({int(graph.nodes[p]["year"]) for p in paper_ids if graph.nodes[p].get("year") is not None})
    venues = [v for v, _ in Counter(str(graph.nodes[p].get("venue")) for p in paper_ids
                                     if graph.nodes[p].get("venue")).most_common()]
    papers, texts = [], {}
    for paper in paper_ids:
        data = graph.nodes[paper]
        texts[paper] = readable(str(data.get("abstract") or ""))
        record = {"t": str(data.get("title") or data.get("name") or paper), "a": texts[paper].text}
        if data.get("year") is not None:
            record["y"] = int(data["year"])
        if data.get("venue"):
            record["v"] = str(data["venue"])
        if data.get("url"):
            record["u"] = str(data["url"])
        papers.append(record)

    scale = max((max(abs(x), abs(y)) for x, y in positions.values()), default=1.0) or 1.0
    entities = []
    for node in entity_ids:
        data, source = network.nodes[node], graph.nodes[node]
        spans = sorted(mentions[node], key=lambda m: paper_index[m[0]])
        x, y = positions.get(node, (0.0, 0.0))
        record = {
            "id": str(node), "n": str(data.get("name") or node), "t": data.get("label"),
            "p": int(data.get("paper_count") or 0), "c": int(data.get("community") or 0),
            "x": round(x / scale, 5), "y": round(y / scale, 5),
            "m": [[paper_index[p], *texts[p].span(s, e), 1 if proposed else 0] for p, s, e, proposed in spans],
        }
        if years:
            per_year = Counter(graph.nodes[p].get("year") for p, *_ in spans)
            record["yr"] = [per_year.get(year, 0) for year in years]
        if len(venues) > 1:
            per_venue = Counter(graph.nodes[p].get("venue") for p, *_ in spans)
            record["vn"] = [per_venue.get(venue, 0) for venue in venues]
        if source.get("aliases"):
            record["al"] = [str(a) for a in source["aliases"]]
        if source.get("generic"):
            record["g"] = 1
        related = sorted(network[node].items(), key=lambda item: (-item[1].get("weight", 1), str(item[0])))
        record["r"] = [[index[other], int(link.get("weight", 1))] for other, link in related[:RELATED]]
        entities.append(record)

    strongest = sorted(
        ((a, b, d) for a, b, d in network.edges(data=True) if d.get("weight", 1) >= 2),
        key=lambda e: (-e[2]["weight"], -e[2].get("association_strength", 0.0), str(e[0]), str(e[1])),
    )[:link_limit]
    links = sorted([min(index[a], index[b]), max(index[a], index[b]), int(d["weight"])] for a, b, d in strongest)
    type_counts = Counter(data.get("label") for _, data in network.nodes(data=True))
    venue_papers = Counter(papers[i].get("v") for i in range(len(papers)))
    return {
        "meta": {
            "title": title, "generator": f"kg {__version__}", "papers": len(papers),
            "graph_papers": sum(1 for _, d in graph.nodes(data=True) if d.get("label") == "Paper"),
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


def render_term_map(payload: dict) -> str:
    """The complete page for ``payload`` (see :func:`term_map_payload`)."""
    return render_page(payload, template="termmap.html", styles=("viewer.css", "termmap.css"),
                       scripts=("graphology.umd.min.js", "sigma.min.js", "labels.js", "termmap.js"))


def write_term_map(path: str | Path, payload: dict) -> Path:
    """Write the page of ``payload`` to ``path``; returns the path."""
    with atomic_open(path) as handle:
        handle.write(render_term_map(payload))
    return Path(path)
