"""A static overview picture of the graph (PNG, SVG, PDF: by the file's extension) for reports.

Drawn with matplotlib on the same positions as the interactive page: nodes
coloured by type and sized by paper count, the most studied entities named.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import networkx as nx

from kg.viz.html import ENTITY_TYPES, TYPE_COLOURS, TYPE_ORDER, layout_positions

__all__ = ["draw_overview", "short_label", "write_overview"]


def short_label(text: object, size: int = 34) -> str:
    """``text`` cut to ``size`` characters with an ellipsis, for labels on a figure.

    >>> short_label("Massive Text Embedding Benchmark", 12)
    'Massive Tex…'
    """
    text = str(text)
    return text if len(text) <= size else text[: size - 1] + "…"


def draw_overview(
    graph: nx.MultiDiGraph,
    *,
    positions: dict | None = None,
    title: str | None = None,
    labels: int = 20,
    ax=None,
):
    """Draw ``graph`` on a matplotlib axes (a new figure when ``ax`` is None); returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib import patheffects
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    if positions is None:
        positions = layout_positions(graph)
    if ax is None:
        fig, ax = plt.subplots(figsize=(10, 8.5), layout="constrained")
    else:
        fig = ax.figure
    segments = [(positions[u], positions[v]) for u, v in graph.edges() if u != v]
    width = 0.4 if len(segments) < 5000 else 0.15
    ax.add_collection(LineCollection(segments, colors="#c9d0d6", linewidths=width, alpha=0.7, zorder=1))
    counts = {}
    for data in (d for _, d in graph.nodes(data=True)):
        counts[data.get("label")] = counts.get(data.get("label"), 0) + 1
    largest = max((_papers(graph, n) for n in graph), default=1) or 1
    scale = 240 if len(graph) < 2000 else 80
    handles = []
    # papers and plumbing first, entities on top
    for label in ["Paper", "Venue", "CodeRepository", "Result", *reversed(ENTITY_TYPES)]:
        members = [n for n, d in graph.nodes(data=True) if d.get("label") == label]
        if not members:
            continue
        colour = TYPE_COLOURS.get(label, "#999999")
        sizes = [4 + scale * (_papers(graph, n) / largest) ** 0.5 for n in members]
        ax.scatter(
            [positions[n][0] for n in members], [positions[n][1] for n in members], s=sizes,
            c=colour, linewidths=0.4, edgecolors="white", zorder=2 if label in ENTITY_TYPES else 1.5,
        )
    for label in TYPE_ORDER:
        if counts.get(label):
            handles.append(Line2D([], [], marker="o", linestyle="", markersize=7, markerfacecolor=TYPE_COLOURS[label],
                                  markeredgecolor="white", label=f"{label} ({counts[label]:,})"))
    entities = [n for n, d in graph.nodes(data=True) if d.get("label") in ENTITY_TYPES]
    entities.sort(key=lambda n: (-_papers(graph, n), str(graph.nodes[n].get("name"))))
    halo = [patheffects.withStroke(linewidth=2.5, foreground="white")]
    for node in _spread(entities[: labels * 3], positions, labels):
        x, y = positions[node]
        ax.annotate(
            short_label(graph.nodes[node].get("name") or node, 32), (x, y), xytext=(4, 3), textcoords="offset points",
            fontsize=8.5, color="#1d2329", zorder=3, path_effects=halo,
        )
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9,
              title="node types", title_fontsize=9, alignment="left")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.margins(0.03)
    ax.set_axis_off()
    if title:
        ax.set_title(title, loc="left", fontsize=13)
    return fig


def _spread(nodes: list, positions: dict, limit: int, min_distance: float = 0.08) -> Iterable:
    """The first ``limit`` nodes, skipping any too close to one already chosen (labels would overlap)."""
    chosen: list = []
    for node in nodes:
        x, y = positions[node]
        if all((x - positions[c][0]) ** 2 + (y - positions[c][1]) ** 2 >= min_distance**2 for c in chosen):
            chosen.append(node)
        if len(chosen) >= limit:
            break
    return chosen


def _papers(graph: nx.MultiDiGraph, node) -> int:
    data = graph.nodes[node]
    if data.get("label") in ENTITY_TYPES:
        return int(data.get("paper_count") or 0)
    if data.get("label") == "Paper":
        return 1
    return sum(1 for u in graph.predecessors(node) if graph.nodes[u].get("label") == "Paper")


def write_overview(
    graph: nx.MultiDiGraph,
    paths: Iterable[str | Path],
    *,
    positions: dict | None = None,
    title: str | None = None,
    labels: int = 20,
) -> list[Path]:
    """Write the overview picture to each of ``paths`` (format from the extension); returns them."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if positions is None:
        positions = layout_positions(graph)
    fig = draw_overview(graph, positions=positions, title=title, labels=labels)
    written = []
    try:
        for path in paths:
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            metadata = {"Date": None} if path.suffix.lower() in (".svg", ".pdf") else {}
            with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "kg"}):
                fig.savefig(path, dpi=150, metadata=metadata)
            written.append(path)
    finally:
        plt.close(fig)
    return written
