"""Static pictures for papers and reports (PNG, SVG, PDF: by the file's extension).

Two drawings share one rule for names: labels are placed by priority, each at
the first spot around its node (right, left, above, below) where its box,
measured by matplotlib's renderer, overlaps no label, legend or title already
placed and stays inside the canvas; a label that fits nowhere is left out
(:func:`place_labels`). Legends sit outside the axes in space the layout
reserves for them, so nothing is cut off.

* :func:`draw_overview`: the whole graph (papers, entities, results ...),
  readable up to a few thousand nodes;
* :func:`draw_term_map`: entities only, placed by co-occurrence, coloured by
  community, sized by papers: the picture of a large field.

Titles come from the data (:func:`field_title`) unless given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import networkx as nx

from kg.schema import NODE_LABELS
from kg.viz.html import ENTITY_TYPES, TYPE_COLOURS, TYPE_ORDER, layout_positions

__all__ = [
    "COMMUNITY_COLOURS", "OVERVIEW_NODE_LIMIT", "draw_overview", "draw_term_map", "field_title", "place_labels",
    "save_figure", "short_label", "write_overview",
]

INK, MUTED = "#1d2329", "#69737d"
#: Tableau 10, then matplotlib's tab10 shades; community ``n`` gets colour ``n - 1``.
COMMUNITY_COLOURS = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
]
NO_COMMUNITY = "#c5cbd1"
#: Above this many nodes the whole-graph overview is a hairball; draw the term map instead.
OVERVIEW_NODE_LIMIT = 2500
#: How much larger than the renderer's extent a label is taken to be (width, height): a viewer
#: draws the SVG's text with its own font metrics, a few percent wider or taller than Agg's.
_SLACK = (1.06, 1.12)
_LABEL_BOX = {"boxstyle": "square,pad=0.08", "facecolor": "white", "edgecolor": "none", "alpha": 0.72}


def short_label(text: object, size: int = 34) -> str:
    """``text`` cut to ``size`` characters with an ellipsis, for labels on a figure.

    >>> short_label("Massive Text Embedding Benchmark", 12)
    'Massive Tex…'
    """
    text = str(text)
    return text if len(text) <= size else text[: size - 1] + "…"


def field_title(graph: nx.MultiDiGraph) -> str:
    """What the papers are, from their venues and years: ``NeurIPS 2023 and ICML 2024``.

    >>> g = nx.MultiDiGraph()
    >>> for i, (venue, year) in enumerate([("NeurIPS", 2023), ("ICML", 2024), ("ICML", 2024), ("ICML", 2023)]):
    ...     g.add_node(i, label="Paper", venue=venue, year=year)
    >>> field_title(g)
    'ICML 2023–2024 and NeurIPS 2023'
    >>> g.remove_node(3)
    >>> field_title(g)  # in order of their first year
    'NeurIPS 2023 and ICML 2024'
    >>> field_title(nx.MultiDiGraph())
    'No papers'
    """
    papers = [d for _, d in graph.nodes(data=True) if d.get("label") == "Paper"]
    if not papers:
        return "No papers"
    venues: dict[str, set[int]] = {}
    for data in papers:
        venues.setdefault(str(data.get("venue") or ""), set()).update([data["year"]] if data.get("year") else [])
    all_years = sorted(set().union(*venues.values()))
    named = sorted((v for v in venues if v), key=lambda v: (min(venues[v], default=0), v))
    if not named or len(named) > 4:
        what = f"{len(named)} venues" if named else f"{len(papers):,} papers"
        return f"{what}, {_years(all_years)}" if all_years else what
    parts = [f"{venue} {_years(sorted(venues[venue]))}".strip() for venue in named]
    if "" in venues:
        parts.append("other papers")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _years(years: Sequence[int]) -> str:
    if not years:
        return ""
    if list(years) == list(range(years[0], years[-1] + 1)) and len(years) > 1:
        return f"{years[0]}–{years[-1]}"
    return ", ".join(str(y) for y in years)


def place_labels(ax, items: Iterable[tuple], *, keep_clear: Iterable = (), limit: int | None = None,
                 gap: float = 2.0) -> list:
    """Name points of ``ax`` without overlap; returns the labels drawn.

    ``items``: ``(text, (x, y), marker radius in points, font size)`` in priority order.
    The figure's layout is settled first and then frozen, so the boxes measured here are
    the boxes saved; ``keep_clear`` artists (legend, title) are avoided too.
    """
    fig = ax.figure
    fig.canvas.draw()
    fig.set_layout_engine("none")
    renderer = fig.canvas.get_renderer()
    scale = fig.dpi / 72
    margin = gap * scale
    taken = [artist.get_window_extent(renderer) for artist in keep_clear if artist is not None]
    width, height = fig.bbox.width, fig.bbox.height
    placed: list = []
    for text, (x, y), radius, size in items:
        if limit is not None and len(placed) >= limit:
            break
        off = radius + 2.5
        for dx, dy, ha, va in ((off, 0, "left", "center"), (-off, 0, "right", "center"),
                               (0, off, "center", "bottom"), (0, -off, "center", "top")):
            label = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va=va,
                                fontsize=size, color=INK, zorder=5, annotation_clip=False, bbox=_LABEL_BOX)
            label.set_in_layout(False)
            box = label.get_window_extent(renderer).expanded(*_SLACK)
            inside = box.x0 >= margin and box.y0 >= margin and box.x1 <= width - margin and box.y1 <= height - margin
            if inside and not any(_near(box, other, margin) for other in taken):
                taken.append(box)
                placed.append(label)
                break
            label.remove()
    return placed


def _near(a, b, gap: float) -> bool:
    return a.x0 < b.x1 + gap and b.x0 < a.x1 + gap and a.y0 < b.y1 + gap and b.y0 < a.y1 + gap


def _radius_pt(area: float) -> float:
    """The radius, in points, of a scatter marker of ``area`` square points."""
    return (area / 3.14159) ** 0.5


def draw_overview(
    graph: nx.MultiDiGraph,
    *,
    positions: dict | None = None,
    title: str | None = None,
    labels: int = 30,
):
    """The whole graph, coloured by type and sized by paper count; returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    if positions is None:
        positions = layout_positions(graph)
    fig, ax = plt.subplots(figsize=(10, 8), layout="constrained")
    segments = [(positions[u], positions[v]) for u, v in graph.edges() if u != v]
    width = 0.4 if len(segments) < 5000 else 0.15
    ax.add_collection(LineCollection(segments, colors="#c9d0d6", linewidths=width, alpha=0.7, zorder=1))
    area = _overview_areas(graph)
    _scatter_by_type(ax, graph, positions, area)
    legend = _type_legend(fig, Counter(d.get("label") for _, d in graph.nodes(data=True)))
    _frame(ax, positions.values())
    heading = ax.set_title(title, loc="left", fontsize=13, color=INK) if title else None
    entities = [n for n, d in graph.nodes(data=True) if d.get("label") in ENTITY_TYPES]
    entities.sort(key=lambda n: (-_papers(graph, n), str(graph.nodes[n].get("name"))))
    place_labels(ax, ((short_label(graph.nodes[n].get("name") or n, 32), positions[n], _radius_pt(area[n]), 8.5)
                      for n in entities), keep_clear=(legend, heading), limit=labels)
    return fig


def _overview_areas(graph: nx.MultiDiGraph) -> dict:
    """Marker areas by paper count; smaller markers on big graphs so they stay apart."""
    largest = max((_papers(graph, n) for n in graph), default=1) or 1
    scale = 240 if len(graph) < 2000 else 80
    return {n: 4 + scale * (_papers(graph, n) / largest) ** 0.5 for n in graph}


def _scatter_by_type(ax, graph: nx.MultiDiGraph, positions: dict, area: dict) -> None:
    """One scatter per node type: papers and plumbing first, entities on top."""
    for label in [*(label for label in NODE_LABELS if label not in ENTITY_TYPES), *reversed(ENTITY_TYPES)]:
        members = [n for n, d in graph.nodes(data=True) if d.get("label") == label]
        if members:
            ax.scatter([positions[n][0] for n in members], [positions[n][1] for n in members],
                       s=[area[n] for n in members], c=TYPE_COLOURS.get(label, "#999999"), linewidths=0.4,
                       edgecolors="white", zorder=2 if label in ENTITY_TYPES else 1.5)


def _type_legend(fig, counts: Counter):
    """The legend of node types with their counts, outside the axes; None when there is no type to show."""
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], marker="o", linestyle="", markersize=7, markerfacecolor=TYPE_COLOURS[label],
                      markeredgecolor="white", label=f"{label} ({counts[label]:,})")
               for label in TYPE_ORDER if counts.get(label)]
    if not handles:
        return None
    return fig.legend(handles=handles, loc="outside right upper", frameon=False, fontsize=9,
                      title="node types", title_fontsize=9, alignment="left")


def draw_term_map(
    network: nx.Graph,
    positions: dict,
    communities: Sequence = (),
    *,
    title: str | None = None,
    labels: int = 80,
    legend: int = 12,
    links: int = 1500,
):
    """Entities placed by co-occurrence, coloured by community, sized by papers, named by priority.

    ``network``: a co-occurrence network whose nodes carry ``name``, ``paper_count`` and
    ``community`` (see :func:`kg.analyse.communities.detect_communities`).
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    fig, ax = plt.subplots(figsize=(11, 8.5), layout="constrained")
    strongest = sorted(network.edges(data=True), key=lambda e: (-e[2].get("weight", 1), str(e[0]), str(e[1])))
    segments = [(positions[a], positions[b]) for a, b, d in strongest[:links] if d.get("weight", 1) >= 2]
    ax.add_collection(LineCollection(segments, colors="#cfd6dc", linewidths=0.5, alpha=0.6, zorder=1))
    largest = max((network.nodes[n]["paper_count"] for n in network), default=1) or 1
    area = {n: 6 + 420 * (network.nodes[n]["paper_count"] / largest) ** 0.5 for n in network}
    drawn = sorted(network, key=lambda n: (-network.nodes[n]["paper_count"], str(n)))  # small ones on top
    ax.scatter([positions[n][0] for n in drawn], [positions[n][1] for n in drawn], s=[area[n] for n in drawn],
               c=[community_colour(network.nodes[n].get("community")) for n in drawn], alpha=0.85,
               edgecolors="white", linewidths=0.4, zorder=2)
    handles = [Line2D([], [], marker="o", linestyle="", markersize=7, markerfacecolor=community_colour(c.id),
                      markeredgecolor="white", label=f"{short_label(c.label, 44)} ({len(c.members)})")
               for c in list(communities)[:legend]]
    key = fig.legend(handles=handles, loc="outside right upper", frameon=False, fontsize=8.5,
                     title="communities (entities)", title_fontsize=9, alignment="left") if handles else None
    _frame(ax, positions.values())
    heading = ax.set_title(title, loc="left", fontsize=13, color=INK) if title else None
    strength = dict(network.degree(weight="weight"))
    ranked = sorted(network, key=lambda n: (-network.nodes[n]["paper_count"], -strength.get(n, 0), str(n)))
    size = {n: 7.5 + 4.0 * (network.nodes[n]["paper_count"] / largest) ** 0.5 for n in network}
    place_labels(ax, ((short_label(network.nodes[n]["name"], 30), positions[n], _radius_pt(area[n]), round(size[n], 1))
                      for n in ranked), keep_clear=(key, heading), limit=labels)
    return fig


def community_colour(number: int | None) -> str:
    """The colour of community ``number`` (1-based); grey for none or past the palette."""
    return COMMUNITY_COLOURS[number - 1] if number and 0 < number <= len(COMMUNITY_COLOURS) else NO_COMMUNITY


def _frame(ax, points: Iterable) -> None:
    xs, ys = zip(*points) if points else ((0.0,), (0.0,))
    ax.set_aspect("equal")
    ax.set_xlim(min(xs) - 0.05, max(xs) + 0.05)
    ax.set_ylim(min(ys) - 0.05, max(ys) + 0.05)
    ax.set_axis_off()


def _papers(graph: nx.MultiDiGraph, node) -> int:
    data = graph.nodes[node]
    if data.get("label") in ENTITY_TYPES:
        return int(data.get("paper_count") or 0)
    if data.get("label") == "Paper":
        return 1
    return sum(1 for u in graph.predecessors(node) if graph.nodes[u].get("label") == "Paper")


def save_figure(fig, paths: Iterable[str | Path], *, dpi: int = 150) -> list[Path]:
    """Save ``fig`` to each path (format by extension, no date in SVG or PDF), then close it."""
    import matplotlib.pyplot as plt

    written = []
    try:
        for path in paths:
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            metadata = {"Date": None} if path.suffix.lower() in (".svg", ".pdf") else {}
            with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "kg"}):
                fig.savefig(path, dpi=dpi, metadata=metadata)
            written.append(path)
    finally:
        plt.close(fig)
    return written


def write_overview(
    graph: nx.MultiDiGraph,
    paths: Iterable[str | Path],
    *,
    positions: dict | None = None,
    title: str | None = None,
    labels: int = 30,
) -> list[Path]:
    """Write the whole-graph picture to each of ``paths`` (format from the extension); returns them."""
    import matplotlib

    matplotlib.use("Agg")
    fig = draw_overview(graph, positions=positions, title=title, labels=labels)
    return save_figure(fig, paths)
