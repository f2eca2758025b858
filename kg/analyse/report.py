"""``kg map``: a research map of a built graph, as a report (HTML and Markdown) and files.

What it answers, in order: what the field is made of (the most studied entities
of each type), which entities go together (co-occurrence networks normalised by
association strength, see :mod:`kg.analyse.cooccurrence`), which groups they form
(Louvain communities with labels) and which entities bridge them (centrality,
see :mod:`kg.analyse.communities`), how it moves (papers and entities per year
and venue, bursts: :mod:`kg.analyse.trends`, when the papers span years).

Files written to the report directory::

    report.html                 self-contained (figures inlined as data URIs)
    report.md                   the same, figures in figures/*.svg
    figures/*.svg
    graph.gexf                  the whole graph for Gephi (positions and type colours)
    cooccurrence.gexf           the entity co-occurrence network (communities, centrality)
    vosviewer/<net>_map.txt     VOSviewer map files (see kg.analyse.exports)
    vosviewer/<net>_network.txt VOSviewer network files
    *.csv                       the tables
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg import __version__
from kg.analyse import plots
from kg.analyse.communities import Community, centrality, detect_communities
from kg.analyse.cooccurrence import PAIR_NETWORKS, cooccurrence_network, top_links
from kg.analyse.exports import write_csv, write_gexf, write_vosviewer
from kg.analyse.leaderboard import board_rows, leaderboards, result_rows
from kg.analyse.load import ENTITY_LABELS
from kg.analyse.termmap import default_min_papers, term_network
from kg.analyse.trends import (
    Burst,
    NewEntities,
    Shift,
    Trend,
    bursts,
    chance_passes,
    entity_years,
    new_entities,
    papers_by_venue,
    papers_by_year,
    rising_and_falling,
    top_by_venue,
    venue_emphasis,
    venue_year_confounded,
)
from kg.export.files import atomic_open
from kg.viz.html import TYPE_COLOURS
from kg.viz.layout import force_layout
from kg.viz.static import OVERVIEW_NODE_LIMIT, field_title
from kg.viz.termmap import term_map_payload, write_term_map

__all__ = ["MapResult", "research_map", "top_entities"]

#: Threshold and minimum papers of the trend tests (see kg.analyse.trends).
Z_THRESHOLD = 3.0
TREND_MIN_PAPERS = 5


@dataclass
class MapResult:
    """What :func:`research_map` found and wrote."""

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


def research_map(
    graph: nx.MultiDiGraph,
    outdir: str | Path | None,
    *,
    title: str | None = None,
    top: int = 10,
    min_papers: int | None = None,
    seed: int = 42,
    overview: bool = True,
    include_generic: bool = False,
) -> MapResult:
    """Analyse ``graph`` and, unless ``outdir`` is None, write the report, the term map and exports there.

    ``min_papers`` (entities in fewer papers are left out of the co-occurrence networks)
    defaults to 1 below 200 papers and 2 from there on. Entities flagged ``generic``
    ("large language model" as a class rather than a method) are left out unless
    ``include_generic``. ``title`` defaults to the venues and years of the papers.
    """
    if not include_generic:
        graph = without_generic(graph)
    name = title or field_title(graph)  # figures and the term map carry the field's name
    title = title or f"Research map: {name}"
    papers = sum(1 for _, d in graph.nodes(data=True) if d.get("label") == "Paper")
    if min_papers is None:
        min_papers = default_min_papers(papers)
    tops = top_entities(graph, top)
    network, communities, positions = term_network(graph, min_papers=min_papers, seed=seed)
    central = centrality(network, seed=seed)
    for node, values in central.items():
        network.nodes[node].update(values)
    pairs = {
        name: cooccurrence_network(graph, rows, cols, min_papers=min_papers)
        for name, (rows, cols) in PAIR_NETWORKS.items()
    }
    per_year = papers_by_year(graph)
    per_venue = papers_by_venue(graph)
    found = bursts(graph, threshold=Z_THRESHOLD)
    emphasis, venue_tested = venue_emphasis(graph, threshold=Z_THRESHOLD, min_papers=TREND_MIN_PAPERS)
    result = MapResult(
        papers, tops, network, communities, central, pairs, per_year, per_venue, found, positions,
        rising_and_falling(graph, threshold=Z_THRESHOLD, min_papers=TREND_MIN_PAPERS), new_entities(graph),
        emphasis, venue_tested, venue_year_confounded(graph), title,
    )
    if outdir is None:
        return result

    out = Path(outdir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    figures: dict[str, str | bytes] = {}
    if any(tops.values()):
        figures["top-entities"] = plots.svg(plots.bar_charts({k: [(r["name"], r["papers"]) for r in v] for k, v in tops.items()}))
    graph_positions = None
    if overview and graph.number_of_nodes() <= OVERVIEW_NODE_LIMIT:
        from kg.viz.html import layout_positions
        from kg.viz.static import draw_overview

        plots.apply_style()
        graph_positions = layout_positions(graph, seed=seed)
        figures["overview"] = plots.svg(draw_overview(graph, positions=graph_positions, title=name))
    if len(network):
        term_title = f"{name}: {len(network):,} entities in ≥ {min_papers} papers"
        figures["term-map"], png = plots.svg_and_png(plots.term_map(network, positions, communities, title=term_title))
        with atomic_open(out / "figures" / "term-map.png", "wb") as handle:
            handle.write(png)
        result.outputs["figure:term-map.png"] = out / "figures" / "term-map.png"
        payload = term_map_payload(graph, network, positions, communities, title=name,
                                   min_papers=min_papers)
        result.outputs["termmap.html"] = write_term_map(out / "termmap.html", payload)
    for name, (rows, cols) in PAIR_NETWORKS.items():
        figure = plots.heatmap(pairs[name], rows, cols)
        if figure is not None:
            figures[f"cooccurrence-{name}"] = plots.svg(figure)
    shares = {}
    if len(per_year) >= 2:
        years = entity_years(graph)
        leaders = sorted((n for n in years if graph.nodes[n].get("label") in ENTITY_LABELS),
                         key=lambda n: (-sum(years[n].values()), str(graph.nodes[n].get("name"))))[:8]
        shares = {str(graph.nodes[n].get("name")): {y: years[n].get(y, 0) / c for y, c in per_year.items()} for n in leaders}
        figures["trends"] = plots.svg(plots.trend_lines(per_year, shares))
    trend = result.trend
    if trend and (trend.rising or trend.falling):
        rows = [(s.name, s.share_out, s.share_in) for s in trend.rising[:10] + trend.falling[:10]]
        earlier = _span(trend.earlier)
        figures["rising-falling"] = plots.svg(plots.shift_bars(rows, before=earlier, after=str(trend.latest), limit=20))
    if len(per_venue) >= 2:
        figures["venues"] = plots.svg(plots.venue_bars(per_venue))
    for name, content in figures.items():
        path = out / "figures" / f"{name}.{_extension(content)}"
        with atomic_open(path, "wb") as handle:
            handle.write(content if isinstance(content, bytes) else content.encode("utf-8"))
        result.outputs[f"figure:{name}"] = path

    # exports
    result.outputs["graph.gexf"] = write_gexf(graph, out / "graph.gexf", positions=graph_positions, colours=TYPE_COLOURS)
    community_colours = {}
    for node in network:
        number = network.nodes[node].get("community") or 0
        if 0 < number <= len(plots.COMMUNITY_COLOURS):
            community_colours[node] = plots.COMMUNITY_COLOURS[number - 1]
    gexf_network = network.copy()
    for node, colour in community_colours.items():
        gexf_network.nodes[node]["viz"] = {"color": _rgb(colour)}
    result.outputs["cooccurrence.gexf"] = write_gexf(gexf_network, out / "cooccurrence.gexf", positions=positions)
    vos = out / "vosviewer"
    vos.mkdir(exist_ok=True)
    if write_vosviewer(network, vos / "entities_map.txt", vos / "entities_network.txt", positions=positions):
        result.outputs["vosviewer:entities"] = vos / "entities_map.txt"
    for name, pair in pairs.items():
        pair.remove_nodes_from([n for n in list(pair) if pair.degree(n) == 0])
        detect_communities(pair, seed=seed)
        if write_vosviewer(pair, vos / f"{name}_map.txt", vos / f"{name}_network.txt",
                           positions=force_layout(pair, seed=seed) if len(pair) else {}):
            result.outputs[f"vosviewer:{name}"] = vos / f"{name}_map.txt"

    tables = _tables(result, graph)
    for name, (header, rows) in tables.items():
        result.outputs[f"table:{name}"] = write_csv(out / f"{name}.csv", header, rows)

    boards = _leaderboards(graph)
    write_csv(out / "leaderboards.csv", _BOARD_COLUMNS, ([row[c] for c in _BOARD_COLUMNS] for row in board_rows(boards)))
    result.outputs["table:leaderboards"] = out / "leaderboards.csv"

    blocks = _document(result, graph, title, min_papers, figures, shares)
    blocks[-2:-2] = _leaderboard_blocks(graph, boards)
    with atomic_open(out / "report.md") as handle:
        handle.write(_markdown(blocks))
    with atomic_open(out / "report.html") as handle:
        handle.write(_html(blocks, title))
    result.outputs["report.md"] = out / "report.md"
    result.outputs["report.html"] = out / "report.html"
    return result


_BOARD_COLUMNS = ("task", "dataset", "metric", "direction", "kind", "rank", "subject", "value", "number", "delta",
                  "baseline", "setting", "paper", "title", "year", "venue", "sentence", "value_start", "value_end")
#: Boards shown in the report (all are in leaderboards.csv).
REPORT_BOARDS = 8


def _leaderboards(graph: nx.MultiDiGraph):
    return leaderboards(result_rows(graph))


def _leaderboard_blocks(graph: nx.MultiDiGraph, boards) -> list[tuple]:
    """The report's leaderboard section: how many results make boards, then the largest boards."""
    rows = result_rows(graph)
    papers = len({r["paper"] for r in rows})
    placed = sum(board.size for board in boards)
    blocks: list[tuple] = [("h2", "Leaderboards")]
    if not rows:
        return blocks + [("p", "The abstracts state no numeric results.")]
    blocks.append(("p", (
        f"{len(rows):,} numeric results stated in {papers:,} abstracts; {placed:,} of them name a metric and a "
        f"dataset or task and make {len(boards):,} leaderboards (task · dataset · metric). Scores are ranked the "
        "way their metric is better; results that state only a change over a baseline are listed after them. "
        "An abstract states fewer results than its paper: these boards hold what the abstracts say "
        "(all of them in leaderboards.csv; `kg leaderboard` prints them with their evidence).")))
    shown = [b for b in boards if b.size >= 2][:REPORT_BOARDS] or boards[:REPORT_BOARDS]
    for board in shown:
        way = {"higher": "higher is better", "lower": "lower is better"}.get(board.direction, "direction not stated")
        blocks.append(("h3", f"{' · '.join(x for x in (board.task, board.dataset, board.metric) if x)} ({way})"))
        table = []
        for kind, entries in (("score", board.scores), ("change", board.changes)):
            for rank, row in enumerate(entries, 1):
                table.append([f"{rank}" if kind == "score" else f"Δ{rank}", row["value"],
                              row.get("subject") or "(the paper's method)", row.get("title") or row["paper"],
                              row.get("year") or "", row.get("baseline") or ""])
        blocks.append(("table", ["#", "value", "method", "paper", "year", "against"], table))
    return blocks


def _span(years) -> str:
    years = sorted(years)
    if not years:
        return "no years given"
    return str(years[0]) if len(years) == 1 else f"{years[0]}–{years[-1]}"


def _extension(content: str | bytes) -> str:
    return "png" if isinstance(content, bytes) else "svg"


def _rgb(colour: str) -> dict:
    return {"r": int(colour[1:3], 16), "g": int(colour[3:5], 16), "b": int(colour[5:7], 16), "a": 1.0}


def _fmt(value: float) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _tables(result: MapResult, graph: nx.MultiDiGraph) -> dict[str, tuple[list, list]]:
    network = result.network
    tables = {
        "top_entities": (
            ["type", "rank", "id", "name", "papers", "proposed_by", "catalogue_id"],
            [[k, i + 1, r["id"], r["name"], r["papers"], r["proposed_by"], r["catalogue_id"]]
             for k, rows in result.top.items() for i, r in enumerate(rows)],
        ),
        "communities": (
            ["community", "label", "size", "papers", "members"],
            [[c.id, c.label, len(c.members), c.papers, "; ".join(network.nodes[m]["name"] for m in c.members)]
             for c in result.communities],
        ),
        "centrality": (
            ["id", "name", "type", "papers", "community", "degree", "strength", "betweenness"],
            [[n, network.nodes[n]["name"], network.nodes[n]["label"], network.nodes[n]["paper_count"],
              network.nodes[n].get("community", 0), v["degree"], v["strength"], f"{v['betweenness']:.6f}"]
             for n, v in sorted(result.centrality.items(), key=lambda item: (-item[1]["betweenness"], item[0]))],
        ),
        "papers_per_year": (["year", "papers"], [[y, c] for y, c in result.per_year.items()]),
        "papers_per_venue": (["venue", "papers"], [[v, c] for v, c in result.per_venue.items()]),
    }
    for name, pair in result.pair_networks.items():
        rows = top_links(pair, limit=10**9)
        tables[f"cooccurrence-{name}"] = (
            ["source", "source_type", "target", "target_type", "papers", "association_strength"],
            [[r["source_name"], r["source_type"], r["target_name"], r["target_type"], r["papers"],
              f"{r['association_strength']:.6f}"] for r in rows],
        )
    if result.trend:
        header = ["id", "name", "type", "papers_before", "papers_before_total", "papers_latest", "papers_latest_total", "z"]
        for kind in ("rising", "falling"):
            tables[kind] = (header, [[s.entity, s.name, s.label, s.papers_out, s.total_out, s.papers_in, s.total_in,
                                      f"{s.z:.3f}"] for s in getattr(result.trend, kind)])
    if result.new_entities:
        tables["new_entities"] = (["year", "id", "name", "type", "papers_that_year"],
                                  [[n.year, e, graph.nodes[e].get("name"), graph.nodes[e].get("label"), k]
                                   for n in result.new_entities for e, k in n.leading])
    if result.venue_emphasis:
        tables["venue_emphasis"] = (
            ["venue", "id", "name", "type", "papers_here", "papers_here_total", "papers_elsewhere",
             "papers_elsewhere_total", "z"],
            [[s.group, s.entity, s.name, s.label, s.papers_in, s.total_in, s.papers_out, s.total_out, f"{s.z:.3f}"]
             for shifts in result.venue_emphasis.values() for s in shifts],
        )
    if result.bursts:
        tables["bursts"] = (
            ["id", "name", "type", "start", "end", "z", "papers"],
            [[b.entity, b.name, b.label, b.start, b.end, f"{b.z:.3f}", b.papers] for b in result.bursts],
        )
    return tables


# ---- the document: a list of blocks rendered to Markdown and to HTML ---------------------------

def _document(result: MapResult, graph, title, min_papers, figures, shares) -> list[tuple]:
    network = result.network
    counts = {label: sum(1 for _, d in graph.nodes(data=True) if d.get("label") == label) for label in ENTITY_LABELS}
    years = list(result.per_year)
    span = f"{years[0]}–{years[-1]}" if len(years) > 1 else (str(years[0]) if years else "no years given")
    blocks: list[tuple] = [("h1", title)]
    blocks.append(("p", f"{result.papers:,} papers ({span}; {len(result.per_venue)} venue"
                        f"{'s' if len(result.per_venue) != 1 else ''}) · "
                        + " · ".join(f"{counts[k]:,} {k.lower()}s" for k in ENTITY_LABELS)
                        + f". Made with kg {__version__}."))
    if "termmap.html" in result.outputs:
        blocks.append(("p", ("The interactive term map (termmap.html, next to this report) shows every co-occurring "
                            "entity: zoom for more names, density view, overlays by year and venue, click an entity "
                            "for its papers and the sentences that mention it.")))
    if "overview" in figures:
        blocks.append(("figure", "overview", figures["overview"],
                       "The whole graph: papers (grey) and what they mention, coloured by type, sized by paper count."))
    elif "term-map" in figures:
        blocks.append(("figure", "term-map", figures["term-map"],
                       (f"The graph has {graph.number_of_nodes():,} nodes, too many to draw one by one; its picture is "
                        "the term map: entities only, placed by co-occurrence (papers shared), coloured by community, "
                        "sized by papers, the most studied named.")))

    blocks.append(("h2", "What the field is made of"))
    blocks.append(("p", "The most studied entities of each type, by the number of papers that mention or propose them."))
    if "top-entities" in figures:
        blocks.append(("figure", "top-entities", figures["top-entities"], "Most studied entities per type."))
    else:
        blocks.append(("p", "No entities in this graph."))
    for label, rows in result.top.items():
        if rows:
            blocks.append(("h3", f"{label}s"))
            blocks.append(("table", ["#", "name", "papers", "proposed by", "catalogue"],
                           [[i + 1, r["name"], r["papers"], r["proposed_by"], r["catalogue_id"]] for i, r in enumerate(rows)]))

    blocks.append(("h2", "What goes together"))
    blocks.append(("p", ("Two entities co-occur once for each paper that mentions both. Links are normalised by "
                        "association strength, as in VOSviewer: s = 2m·c / (k_i·k_j), with c the papers shared, "
                        "k_i the total co-occurrences of each entity and m the total over the network, i.e. "
                        "observed / expected co-occurrence; above 1 a pair meets more often than chance.")
                        + (f" Entities in fewer than {min_papers} papers are left out." if min_papers > 1 else "")))
    for name, (rows, cols) in PAIR_NETWORKS.items():
        pair = result.pair_networks[name]
        nice = f"{rows[0]} × {cols[0]}"
        blocks.append(("h3", nice))
        if not pair.number_of_edges():
            blocks.append(("p", f"No paper mentions both a {rows[0].lower()} and a {cols[0].lower()}."))
            continue
        key = f"cooccurrence-{name}"
        if key in figures:
            blocks.append(("figure", key, figures[key],
                           (f"Papers shared by the most studied {rows[0].lower()}s and {cols[0].lower()}s "
                           "(numbers); colour: association strength.")))
        strong = top_links(pair, 12, min_weight=2) or top_links(pair, 12)
        blocks.append(("table", [rows[0], cols[0], "papers", "association strength"],
                       [[r["source_name"] if r["source_type"] == rows[0] else r["target_name"],
                         r["target_name"] if r["source_type"] == rows[0] else r["source_name"],
                         r["papers"], f"{r['association_strength']:.2f}"] for r in strong]))

    blocks.append(("h2", "Communities"))
    if result.communities:
        blocks.append(("p", (f"Louvain communities of the co-occurrence network of all entities "
                            f"({network.number_of_nodes():,} entities, {network.number_of_edges():,} links; fixed seed), "
                            "each named after its three most studied members.")))
        if "term-map" in figures and "overview" in figures:
            blocks.append(("figure", "term-map", figures["term-map"],
                           "Term map: entities placed by co-occurrence, coloured by community, sized by paper count."))
        elif "term-map" in figures:
            blocks.append(("p", "The term map at the top of this report draws them."))
        blocks.append(("table", ["#", "community", "entities", "papers", "types"],
                       [[c.id, c.label, len(c.members), c.papers,
                         ", ".join(f"{v} {k}" for k, v in sorted(c.by_type.items(), key=lambda kv: -kv[1]))]
                        for c in result.communities[:20]]))
        if len(result.communities) > 20:
            blocks.append(("p", f"… and {len(result.communities) - 20} smaller communities (communities.csv)."))
    else:
        blocks.append(("p", "Too few co-occurrences to form communities."))

    blocks.append(("h2", "Bridges"))
    if result.centrality:
        ranked = sorted(result.centrality.items(),
                        key=lambda item: (-item[1]["betweenness"], -item[1]["strength"], network.nodes[item[0]]["name"]))[:15]
        blocks.append(("p", ("Entities that connect otherwise separate parts of the co-occurrence network "
                            "(betweenness centrality; degree: entities met; strength: co-occurrences).")))
        blocks.append(("table", ["name", "type", "papers", "community", "degree", "strength", "betweenness"],
                       [[network.nodes[n]["name"], network.nodes[n]["label"], network.nodes[n]["paper_count"],
                         network.nodes[n].get("community") or "–", v["degree"], v["strength"], f"{v['betweenness']:.3f}"]
                        for n, v in ranked]))

    blocks.append(("h2", "Trends"))
    chance = f"(two-proportion z test, pooled; |z| ≥ {Z_THRESHOLD:g}, about p < 0.0013 on each side; entities in at least {TREND_MIN_PAPERS} papers)"
    if len(result.per_year) >= 2:
        blocks.append(("figure", "trends", figures["trends"], ("Papers per year, and the share of each year's "
                                                              "papers that mention the most studied entities.")))
        blocks.append(("table", ["year", "papers"], [[y, c] for y, c in result.per_year.items()]))
        if result.confounded:
            pairs_text = ", ".join(f"{venue} {year}" for venue, year in sorted(result.confounded.items(), key=lambda kv: kv[1]))
            blocks.append(("p", (f"Caution: each venue here has papers of one year only ({pairs_text}), so a change "
                                 "between years cannot be told apart from a difference between venues: read the "
                                 "rising and falling entities below as both.")))
        trend = result.trend
        if trend is not None:
            earlier = _span(trend.earlier)
            blocks.append(("h3", "Rising and falling"))
            blocks.append(("p", (f"Entities mentioned by a larger (rising) or smaller (falling) share of the {trend.latest} "
                                 f"papers than of the {earlier} papers {chance}. {trend.tested:,} entities were tested; "
                                 f"by chance alone about {chance_passes(trend.tested, Z_THRESHOLD):.1f} would pass on "
                                 f"each side. Found: {len(trend.rising)} rising, {len(trend.falling)} falling.")))
            if "rising-falling" in figures:
                blocks.append(("figure", "rising-falling", figures["rising-falling"],
                               f"Share of papers mentioning each rising or falling entity, {earlier} (grey) and {trend.latest} (red)."))
            for kind, shifts in (("Rising", trend.rising), ("Falling", trend.falling)):
                if shifts:
                    blocks.append(("table", [kind.lower(), "type", f"% of {earlier}", f"% of {trend.latest}",
                                             f"papers {earlier}", f"papers {trend.latest}", "z"],
                                   [[s.name, s.label, f"{100 * s.share_out:.1f}", f"{100 * s.share_in:.1f}",
                                     s.papers_out, s.papers_in, f"{s.z:.1f}"] for s in shifts[:20]]))
        if result.new_entities:
            blocks.append(("h3", "New entities"))
            blocks.append(("p", ("Entities that no paper of an earlier year mentions (a count, not a test: a new "
                                 "venue or a new extraction brings new names too).")))
            blocks.append(("table", ["year", "new entities", "of them in ≥ 3 papers", "most mentioned of them (papers)"],
                           [[n.year, n.count, n.recurring,
                             ", ".join(f"{graph.nodes[e].get('name')} ({k})" for e, k in n.leading[:10])]
                            for n in result.new_entities]))
        if len(result.per_year) >= 3:
            blocks.append(("h3", "Bursts"))
            blocks.append(("p", ("Years in which an entity is mentioned by a clearly larger share of papers than in the "
                                 f"other years: two-proportion z-test of the year against all others, z ≥ {Z_THRESHOLD:g} "
                                 "and at least 3 papers that year.")))
            if result.bursts:
                blocks.append(("table", ["name", "type", "years", "papers", "z"],
                               [[b.name, b.label, str(b.start) if b.start == b.end else f"{b.start}–{b.end}", b.papers,
                                 f"{b.z:.1f}"] for b in result.bursts[:25]]))
            else:
                blocks.append(("p", "No bursts."))
    else:
        blocks.append(("p", f"The papers span one year ({span}): trends need at least two."))
    if len(result.per_venue) >= 2:
        blocks.append(("h2", "Venues"))
        blocks.append(("figure", "venues", figures["venues"], "Papers per venue."))
        by_venue = top_by_venue(graph)
        blocks.append(("table", ["venue", "papers", "most mentioned"],
                       [[v, c, ", ".join(f"{graph.nodes[e]['name']} ({k})" for e, k in by_venue.get(v, []))]
                        for v, c in list(result.per_venue.items())[:20]]))
        if result.venue_emphasis:
            blocks.append(("h3", "What each venue emphasises"))
            blocks.append(("p", (f"Entities mentioned by a larger share of a venue's papers than of the other venues' "
                                 f"papers {chance}. {result.venue_tested:,} entities were tested per venue; by chance "
                                 f"alone about {chance_passes(result.venue_tested, Z_THRESHOLD):.1f} would pass per venue.")))
            for venue, shifts in result.venue_emphasis.items():
                blocks.append(("h3", venue))
                if not shifts:
                    blocks.append(("p", "Nothing passes the test."))
                    continue
                blocks.append(("table", ["entity", "type", "% here", "% elsewhere", "papers here", "z"],
                               [[s.name, s.label, f"{100 * s.share_in:.1f}", f"{100 * s.share_out:.1f}", s.papers_in,
                                 f"{s.z:.1f}"] for s in shifts[:15]]))

    blocks.append(("h2", "Files"))
    blocks.append(("files", [
        *([("termmap.html", "the interactive term map (self-contained, offline)")] if "termmap.html" in result.outputs else []),
        *([("figures/term-map.svg", "the term map as a figure (SVG; PNG next to it)")] if "term-map" in figures else []),
        ("graph.gexf", "the whole graph for Gephi (positions, type colours)"),
        ("cooccurrence.gexf", "the entity co-occurrence network for Gephi (community, centrality, association strength)"),
        *([("vosviewer/entities_map.txt", "VOSviewer map file (id, label, x, y, cluster, weights); open with its network file"),
           ("vosviewer/entities_network.txt", "VOSviewer network file (id1, id2, papers shared)")]
          if "vosviewer:entities" in result.outputs else []),
        *[(f"vosviewer/{name}_map.txt", f"VOSviewer map of {name.replace('-', ' × ')}") for name in PAIR_NETWORKS
          if f"vosviewer:{name}" in result.outputs],
        ("top_entities.csv", "most studied entities per type"),
        ("leaderboards.csv", "every leaderboard entry: task, dataset, metric, rank, value, method, paper, evidence"),
        ("communities.csv", "every community with all its members"),
        ("centrality.csv", "degree, strength, betweenness of every entity"),
        *[(f"cooccurrence-{name}.csv", f"every {name.replace('-', ' × ')} pair with papers and association strength")
          for name in PAIR_NETWORKS],
    ]))
    return blocks


def _md_escape(text) -> str:
    text = str(text).replace("\\", "\\\\")
    for char in "|*_`[]#":
        text = text.replace(char, "\\" + char)
    return " ".join(text.replace("<", "&lt;").replace(">", "&gt;").split())


def _markdown(blocks: list[tuple]) -> str:
    lines: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            lines += ["#" * int(kind[1]) + " " + _md_escape(block[1]), ""]
        elif kind == "p":
            lines += [_md_escape(block[1]), ""]
        elif kind == "figure":
            lines += [f"![{_md_escape(block[3])}](figures/{block[1]}.{_extension(block[2])})", "",
                      f"*{_md_escape(block[3])}*", ""]
        elif kind == "table":
            header, rows = block[1], block[2]
            lines.append("| " + " | ".join(_md_escape(h) for h in header) + " |")
            lines.append("|" + "|".join("---:" if _numeric(rows, i) else "---" for i in range(len(header))) + "|")
            lines += ["| " + " | ".join(_md_escape(_fmt(v)) for v in row) + " |" for row in rows]
            lines.append("")
        elif kind == "files":
            lines += [f"- [`{path}`]({path}): {_md_escape(text)}" for path, text in block[1]]
            lines.append("")
    return "\n".join(lines)


def _numeric(rows, index) -> bool:
    values = [row[index] for row in rows if row[index] not in ("", "–")]
    return bool(values) and all(
        isinstance(v, (int, float)) or str(v).removeprefix("-").replace(".", "", 1).isdigit() for v in values
    )


_STYLE = """
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d2329;max-width:1080px;margin:0 auto;padding:28px 32px 60px;background:#fff}
h1{font-size:26px;margin:0 0 6px}h2{font-size:20px;margin:38px 0 8px;padding-top:12px;border-top:1px solid #e3e6ea}
h3{font-size:15px;margin:22px 0 6px;color:#3b444d}p{margin:6px 0 10px;color:#2b333b}
.lede{color:#69737d}figure{margin:14px 0 18px}figure img{max-width:100%;height:auto;display:block}
figcaption{font-size:13px;color:#69737d;margin-top:4px}
table{border-collapse:collapse;font-size:13.5px;margin:6px 0 14px;width:auto}
th,td{padding:4px 12px 4px 0;text-align:left;border-bottom:1px solid #eef0f2;vertical-align:top}
th{color:#69737d;font-weight:600;border-bottom:1px solid #d5dade}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-size:13px;background:#f3f5f7;padding:1px 5px;border-radius:4px}ul{padding-left:20px}
nav{font-size:13px;color:#69737d;margin:10px 0 0}nav a{color:#2f6fb0;text-decoration:none;margin-right:12px}
"""


def _html(blocks: list[tuple], title: str) -> str:
    esc = html.escape
    body: list[str] = []
    sections = [b[1] for b in blocks if b[0] == "h2"]
    first_paragraph = True
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            body.append(f"<h1>{esc(block[1])}</h1>")
        elif kind == "h2":
            body.append(f'<h2 id="{_anchor(block[1])}">{esc(block[1])}</h2>')
        elif kind == "h3":
            body.append(f"<h3>{esc(block[1])}</h3>")
        elif kind == "p":
            cls = ' class="lede"' if first_paragraph else ""
            body.append(f"<p{cls}>{esc(block[1])}</p>")
            if first_paragraph:
                body.append("<nav>" + "".join(f'<a href="#{_anchor(s)}">{esc(s)}</a>' for s in sections) + "</nav>")
            first_paragraph = False
        elif kind == "figure":
            content = block[2] if isinstance(block[2], bytes) else block[2].encode("utf-8")
            mime = "image/png" if isinstance(block[2], bytes) else "image/svg+xml"
            data = base64.b64encode(content).decode("ascii")
            body.append(f'<figure><img alt="{esc(block[3], quote=True)}" src="data:{mime};base64,{data}">'
                        f"<figcaption>{esc(block[3])}</figcaption></figure>")
        elif kind == "table":
            header, rows = block[1], block[2]
            numeric = [_numeric(rows, i) for i in range(len(header))]
            out = io.StringIO()
            out.write("<table><thead><tr>")
            out.write("".join(f'<th{" class=num" if numeric[i] else ""}>{esc(str(h))}</th>' for i, h in enumerate(header)))
            out.write("</tr></thead><tbody>")
            for row in rows:
                out.write("<tr>" + "".join(f'<td{" class=num" if numeric[i] else ""}>{esc(_fmt(v))}</td>'
                                           for i, v in enumerate(row)) + "</tr>")
            out.write("</tbody></table>")
            body.append(out.getvalue())
        elif kind == "files":
            body.append("<ul>" + "".join(f'<li><a href="{esc(p, quote=True)}"><code>{esc(p)}</code></a>: {esc(t)}</li>'
                                         for p, t in block[1]) + "</ul>")
    csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _anchor(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")
