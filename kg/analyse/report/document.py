"""The report's content: a :class:`MapResult` and its figures as a list of blocks.

The blocks are what both renderers write (:mod:`~kg.analyse.report.markdown` and
:mod:`~kg.analyse.report.html`), so the two say the same thing. Each section of the
report is one function; :func:`document` puts them in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import networkx as nx

from kg import __version__
from kg.analyse.cooccurrence import PAIR_NETWORKS, top_links
from kg.analyse.leaderboard import Board
from kg.analyse.load import ENTITY_LABELS
from kg.analyse.report.analysis import TREND_MIN_PAPERS, Z_THRESHOLD, MapResult, year_span
from kg.analyse.report.figures import figure_file
from kg.analyse.trends import Trend, chance_passes

__all__ = ["Block", "FileList", "Figure", "Heading", "Paragraph", "Table", "document", "format_cell"]

#: Boards shown in the report (all are in leaderboards.csv).
REPORT_BOARDS = 8


@dataclass(frozen=True)
class Heading:
    level: int  # 1: the title; 2: a section (in the HTML's navigation); 3: a subsection
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Figure:
    name: str
    content: str | bytes  # SVG text, or PNG bytes
    caption: str

    @property
    def file(self) -> str:
        """Its file name in ``figures/``."""
        return figure_file(self.name, self.content)


@dataclass(frozen=True)
class Table:
    header: list
    rows: list

    def numeric(self, index: int) -> bool:
        """Column ``index`` holds numbers only (blank and "–" cells aside): right-aligned."""
        values = [row[index] for row in self.rows if row[index] not in ("", "–")]
        return bool(values) and all(
            isinstance(v, (int, float)) or str(v).removeprefix("-").replace(".", "", 1).isdigit() for v in values
        )


@dataclass(frozen=True)
class FileList:
    items: list[tuple[str, str]]  # (path relative to the report, what it holds)


Block = Union[Heading, Paragraph, Figure, Table, FileList]


def format_cell(value) -> str:
    """A table cell as text: floats with two decimals."""
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def document(result: MapResult, graph: nx.MultiDiGraph, figures: dict[str, str | bytes]) -> list[Block]:
    """The report of ``result``: ``graph`` names entities; ``figures`` (by name) are the ones drawn."""
    return [
        *_opening(result, graph, figures),
        *_made_of(result, figures),
        *_together(result, figures),
        *_communities(result, figures),
        *_bridges(result),
        *_trends(result, graph, figures),
        *_venues(result, graph, figures),
        *_leaderboards(result),
        *_files(result, figures),
    ]


def _opening(result: MapResult, graph: nx.MultiDiGraph, figures) -> list[Block]:
    counts = result.entity_counts
    blocks: list[Block] = [Heading(1, result.title)]
    blocks.append(Paragraph(f"{result.papers:,} papers ({year_span(result.per_year)}; {len(result.per_venue)} venue"
                            f"{'s' if len(result.per_venue) != 1 else ''}) · "
                            + " · ".join(f"{counts[k]:,} {k.lower()}s" for k in ENTITY_LABELS)
                            + f". Made with kg {__version__}."))
    if "termmap.html" in result.outputs:
        blocks.append(Paragraph(
            "The interactive term map (termmap.html, next to this report) shows every co-occurring "
            "entity: zoom for more names, density view, overlays by year and venue, click an entity "
            "for its papers and the sentences that mention it."))
    if "overview" in figures:
        blocks.append(Figure("overview", figures["overview"],
                             "The whole graph: papers (grey) and what they mention, coloured by type, "
                             "sized by paper count."))
    elif "term-map" in figures:
        blocks.append(Figure("term-map", figures["term-map"],
                             f"The graph has {graph.number_of_nodes():,} nodes, too many to draw one by one; "
                             "its picture is the term map: entities only, placed by co-occurrence (papers shared), "
                             "coloured by community, sized by papers, the most studied named."))
    return blocks


def _made_of(result: MapResult, figures) -> list[Block]:
    blocks: list[Block] = [
        Heading(2, "What the field is made of"),
        Paragraph("The most studied entities of each type, by the number of papers that mention or propose them."),
    ]
    if "top-entities" in figures:
        blocks.append(Figure("top-entities", figures["top-entities"], "Most studied entities per type."))
    else:
        blocks.append(Paragraph("No entities in this graph."))
    for label, rows in result.top.items():
        if rows:
            blocks.append(Heading(3, f"{label}s"))
            blocks.append(Table(["#", "name", "papers", "proposed by", "catalogue"],
                                [[i + 1, r["name"], r["papers"], r["proposed_by"], r["catalogue_id"]]
                                 for i, r in enumerate(rows)]))
    return blocks


def _together(result: MapResult, figures) -> list[Block]:
    min_papers = result.min_papers
    blocks: list[Block] = [
        Heading(2, "What goes together"),
        Paragraph("Two entities co-occur once for each paper that mentions both. Links are normalised by "
                  "association strength, as in VOSviewer: s = 2m·c / (k_i·k_j), with c the papers shared, "
                  "k_i the total co-occurrences of each entity and m the total over the network, i.e. "
                  "observed / expected co-occurrence; above 1 a pair meets more often than chance."
                  + (f" Entities in fewer than {min_papers} papers are left out." if min_papers > 1 else "")),
    ]
    for name, (rows, cols) in PAIR_NETWORKS.items():
        pair = result.pair_networks[name]
        blocks.append(Heading(3, f"{rows[0]} × {cols[0]}"))
        if not pair.number_of_edges():
            blocks.append(Paragraph(f"No paper mentions both a {rows[0].lower()} and a {cols[0].lower()}."))
            continue
        key = f"cooccurrence-{name}"
        if key in figures:
            blocks.append(Figure(key, figures[key],
                                 f"Papers shared by the most studied {rows[0].lower()}s and {cols[0].lower()}s "
                                 "(numbers); colour: association strength."))
        strong = top_links(pair, 12, min_weight=2) or top_links(pair, 12)
        blocks.append(Table([rows[0], cols[0], "papers", "association strength"],
                            [[r["source_name"] if r["source_type"] == rows[0] else r["target_name"],
                              r["target_name"] if r["source_type"] == rows[0] else r["source_name"],
                              r["papers"], f"{r['association_strength']:.2f}"] for r in strong]))
    return blocks


def _communities(result: MapResult, figures) -> list[Block]:
    network, communities = result.network, result.communities
    blocks: list[Block] = [Heading(2, "Communities")]
    if not communities:
        return blocks + [Paragraph("Too few co-occurrences to form communities.")]
    blocks.append(Paragraph(f"Louvain communities of the co-occurrence network of all entities "
                            f"({network.number_of_nodes():,} entities, {network.number_of_edges():,} links; "
                            "fixed seed), each named after its three most studied members."))
    if "term-map" in figures and "overview" in figures:
        blocks.append(Figure("term-map", figures["term-map"],
                             "Term map: entities placed by co-occurrence, coloured by community, "
                             "sized by paper count."))
    elif "term-map" in figures:
        blocks.append(Paragraph("The term map at the top of this report draws them."))
    blocks.append(Table(["#", "community", "entities", "papers", "types"],
                        [[c.id, c.label, len(c.members), c.papers,
                          ", ".join(f"{v} {k}" for k, v in sorted(c.by_type.items(), key=lambda kv: -kv[1]))]
                         for c in communities[:20]]))
    if len(communities) > 20:
        blocks.append(Paragraph(f"… and {len(communities) - 20} smaller communities (communities.csv)."))
    return blocks


def _bridges(result: MapResult) -> list[Block]:
    blocks: list[Block] = [Heading(2, "Bridges")]
    if not result.centrality:
        return blocks
    nodes = result.network.nodes
    ranked = sorted(result.centrality.items(),
                    key=lambda item: (-item[1]["betweenness"], -item[1]["strength"], nodes[item[0]]["name"]))[:15]
    blocks.append(Paragraph("Entities that connect otherwise separate parts of the co-occurrence network "
                            "(betweenness centrality; degree: entities met; strength: co-occurrences)."))
    blocks.append(Table(["name", "type", "papers", "community", "degree", "strength", "betweenness"],
                        [[nodes[n]["name"], nodes[n]["label"], nodes[n]["paper_count"],
                          nodes[n].get("community") or "–", v["degree"], v["strength"], f"{v['betweenness']:.3f}"]
                         for n, v in ranked]))
    return blocks


#: How the trend tests decide, said after each of their findings.
_CHANCE = (f"(two-proportion z test, pooled; |z| ≥ {Z_THRESHOLD:g}, about p < 0.0013 on each side; "
           f"entities in at least {TREND_MIN_PAPERS} papers)")


def _trends(result: MapResult, graph: nx.MultiDiGraph, figures) -> list[Block]:
    blocks: list[Block] = [Heading(2, "Trends")]
    if len(result.per_year) < 2:
        span = year_span(result.per_year)
        return blocks + [Paragraph(f"The papers span one year ({span}): trends need at least two.")]
    blocks.append(Figure("trends", figures["trends"], "Papers per year, and the share of each year's "
                                                      "papers that mention the most studied entities."))
    blocks.append(Table(["year", "papers"], [[y, c] for y, c in result.per_year.items()]))
    if result.confounded:
        by_year = sorted(result.confounded.items(), key=lambda kv: kv[1])
        pairs_text = ", ".join(f"{venue} {year}" for venue, year in by_year)
        blocks.append(Paragraph(f"Caution: each venue here has papers of one year only ({pairs_text}), so a change "
                                "between years cannot be told apart from a difference between venues: read the "
                                "rising and falling entities below as both."))
    if result.trend is not None:
        blocks += _rising_and_falling(result.trend, figures)
    if result.new_entities:
        blocks += _new_entities(result, graph)
    if len(result.per_year) >= 3:
        blocks += _bursts(result)
    return blocks


def _rising_and_falling(trend: Trend, figures) -> list[Block]:
    earlier = year_span(trend.earlier)
    blocks: list[Block] = [
        Heading(3, "Rising and falling"),
        Paragraph(f"Entities mentioned by a larger (rising) or smaller (falling) share of the {trend.latest} "
                  f"papers than of the {earlier} papers {_CHANCE}. {trend.tested:,} entities were tested; "
                  f"by chance alone about {chance_passes(trend.tested, Z_THRESHOLD):.1f} would pass on "
                  f"each side. Found: {len(trend.rising)} rising, {len(trend.falling)} falling."),
    ]
    if "rising-falling" in figures:
        blocks.append(Figure("rising-falling", figures["rising-falling"],
                             f"Share of papers mentioning each rising or falling entity, {earlier} (grey) "
                             f"and {trend.latest} (red)."))
    for kind, shifts in (("Rising", trend.rising), ("Falling", trend.falling)):
        if shifts:
            blocks.append(Table([kind.lower(), "type", f"% of {earlier}", f"% of {trend.latest}",
                                 f"papers {earlier}", f"papers {trend.latest}", "z"],
                                [[s.name, s.label, f"{100 * s.share_out:.1f}", f"{100 * s.share_in:.1f}",
                                  s.papers_out, s.papers_in, f"{s.z:.1f}"] for s in shifts[:20]]))
    return blocks


def _new_entities(result: MapResult, graph: nx.MultiDiGraph) -> list[Block]:
    return [
        Heading(3, "New entities"),
        Paragraph("Entities that no paper of an earlier year mentions (a count, not a test: a new "
                  "venue or a new extraction brings new names too)."),
        Table(["year", "new entities", "of them in ≥ 3 papers", "most mentioned of them (papers)"],
              [[n.year, n.count, n.recurring,
                ", ".join(f"{graph.nodes[e].get('name')} ({k})" for e, k in n.leading[:10])]
               for n in result.new_entities]),
    ]


def _bursts(result: MapResult) -> list[Block]:
    blocks: list[Block] = [
        Heading(3, "Bursts"),
        Paragraph("Years in which an entity is mentioned by a clearly larger share of papers than in the "
                  f"other years: two-proportion z-test of the year against all others, z ≥ {Z_THRESHOLD:g} "
                  "and at least 3 papers that year."),
    ]
    if not result.bursts:
        return blocks + [Paragraph("No bursts.")]
    blocks.append(Table(["name", "type", "years", "papers", "z"],
                        [[b.name, b.label, str(b.start) if b.start == b.end else f"{b.start}–{b.end}", b.papers,
                          f"{b.z:.1f}"] for b in result.bursts[:25]]))
    return blocks


def _venues(result: MapResult, graph: nx.MultiDiGraph, figures) -> list[Block]:
    if len(result.per_venue) < 2:
        return []
    blocks: list[Block] = [Heading(2, "Venues"), Figure("venues", figures["venues"], "Papers per venue.")]
    leaders = result.venue_leaders
    blocks.append(Table(["venue", "papers", "most mentioned"],
                        [[v, c, ", ".join(f"{graph.nodes[e]['name']} ({k})" for e, k in leaders.get(v, []))]
                         for v, c in list(result.per_venue.items())[:20]]))
    if not result.venue_emphasis:
        return blocks
    blocks.append(Heading(3, "What each venue emphasises"))
    blocks.append(Paragraph(f"Entities mentioned by a larger share of a venue's papers than of the other venues' "
                            f"papers {_CHANCE}. {result.venue_tested:,} entities were tested per venue; by chance "
                            f"alone about {chance_passes(result.venue_tested, Z_THRESHOLD):.1f} would pass per venue."))
    for venue, shifts in result.venue_emphasis.items():
        blocks.append(Heading(3, venue))
        if not shifts:
            blocks.append(Paragraph("Nothing passes the test."))
            continue
        blocks.append(Table(["entity", "type", "% here", "% elsewhere", "papers here", "z"],
                            [[s.name, s.label, f"{100 * s.share_in:.1f}", f"{100 * s.share_out:.1f}", s.papers_in,
                              f"{s.z:.1f}"] for s in shifts[:15]]))
    return blocks


def _leaderboards(result: MapResult) -> list[Block]:
    """How many results make boards, then the largest boards."""
    rows, boards = result.results, result.boards
    blocks: list[Block] = [Heading(2, "Leaderboards")]
    if not rows:
        return blocks + [Paragraph("The abstracts state no numeric results.")]
    papers = len({r["paper"] for r in rows})
    placed = sum(board.size for board in boards)
    blocks.append(Paragraph(
        f"{len(rows):,} numeric results stated in {papers:,} abstracts; {placed:,} of them name a metric and a "
        f"dataset or task and make {len(boards):,} leaderboards (task · dataset · metric). Scores are ranked the "
        "way their metric is better; results that state only a change over a baseline are listed after them. "
        "An abstract states fewer results than its paper: these boards hold what the abstracts say "
        "(all of them in leaderboards.csv; `kg leaderboard` prints them with their evidence)."))
    shown = [b for b in boards if b.size >= 2][:REPORT_BOARDS] or boards[:REPORT_BOARDS]
    for board in shown:
        blocks += _board(board)
    return blocks


def _board(board: Board) -> list[Block]:
    """One leaderboard: its scores ranked, then its changes (Δ) largest first."""
    way = {"higher": "higher is better", "lower": "lower is better"}.get(board.direction, "direction not stated")
    table = []
    for kind, entries in (("score", board.scores), ("change", board.changes)):
        for rank, row in enumerate(entries, 1):
            table.append([f"{rank}" if kind == "score" else f"Δ{rank}", row["value"],
                          row.get("subject") or "(the paper's method)", row.get("title") or row["paper"],
                          row.get("year") or "", row.get("baseline") or ""])
    return [Heading(3, f"{' · '.join(x for x in (board.task, board.dataset, board.metric) if x)} ({way})"),
            Table(["#", "value", "method", "paper", "year", "against"], table)]


def _files(result: MapResult, figures) -> list[Block]:
    outputs = result.outputs
    term_map = [("termmap.html", "the interactive term map (self-contained, offline)")]
    term_map_figure = [("figures/term-map.svg", "the term map as a figure (SVG; PNG next to it)")]
    vosviewer = [("vosviewer/entities_map.txt",
                  "VOSviewer map file (id, label, x, y, cluster, weights); open with its network file"),
                 ("vosviewer/entities_network.txt", "VOSviewer network file (id1, id2, papers shared)")]
    return [Heading(2, "Files"), FileList([
        *(term_map if "termmap.html" in outputs else []),
        *(term_map_figure if "term-map" in figures else []),
        ("graph.gexf", "the whole graph for Gephi (positions, type colours)"),
        ("cooccurrence.gexf",
         "the entity co-occurrence network for Gephi (community, centrality, association strength)"),
        *(vosviewer if "vosviewer:entities" in outputs else []),
        *[(f"vosviewer/{name}_map.txt", f"VOSviewer map of {name.replace('-', ' × ')}") for name in PAIR_NETWORKS
          if f"vosviewer:{name}" in outputs],
        ("top_entities.csv", "most studied entities per type"),
        ("leaderboards.csv", "every leaderboard entry: task, dataset, metric, rank, value, method, paper, evidence"),
        ("communities.csv", "every community with all its members"),
        ("centrality.csv", "degree, strength, betweenness of every entity"),
        *[(f"cooccurrence-{name}.csv", f"every {name.replace('-', ' × ')} pair with papers and association strength")
          for name in PAIR_NETWORKS],
    ])]
