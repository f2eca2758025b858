"""The report's figures (matplotlib, returned as SVG text)."""

from __future__ import annotations

import io

import networkx as nx

from kg.viz.html import TYPE_COLOURS
from kg.viz.static import short_label as _short

__all__ = ["bar_charts", "community_map", "heatmap", "png", "svg", "trend_lines", "venue_bars"]

INK, MUTED, GRID = "#1d2329", "#69737d", "#e3e6ea"
COMMUNITY_COLOURS = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
]


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({
        "font.size": 9, "axes.edgecolor": GRID, "axes.labelcolor": MUTED, "xtick.color": MUTED,
        "ytick.color": INK, "axes.spines.top": False, "axes.spines.right": False, "svg.fonttype": "none",
        "svg.hashsalt": "kg-map",
    })
    return plt


def svg(fig) -> str:
    """The figure as SVG text (no date, so the same figure gives the same file); closes it."""
    plt = _pyplot()
    buffer = io.StringIO()
    try:
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    finally:
        plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def png(fig, dpi: int = 130) -> bytes:
    """The figure as PNG bytes (for drawings too big for SVG); closes it."""
    plt = _pyplot()
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=dpi)
    finally:
        plt.close(fig)
    return buffer.getvalue()


def bar_charts(tops: dict[str, list[tuple[str, int]]]):
    """One horizontal bar chart of (name, papers) per entity type."""
    plt = _pyplot()
    kinds = [k for k, rows in tops.items() if rows]
    columns = min(3, max(1, len(kinds)))
    rows_n = (len(kinds) + columns - 1) // columns
    longest = max((len(rows) for rows in tops.values()), default=1)
    fig, axes = plt.subplots(rows_n, columns, figsize=(4.2 * columns, 0.24 * longest * rows_n + 1.0 * rows_n),
                             squeeze=False, layout="constrained")
    for ax in axes.ravel()[len(kinds):]:
        ax.set_visible(False)
    for ax, kind in zip(axes.ravel(), kinds):
        rows = tops[kind][::-1]
        ax.barh([_short(name) for name, _ in rows], [count for _, count in rows], color=TYPE_COLOURS.get(kind, "#999"))
        ax.set_title(kind, loc="left", fontsize=10, color=INK)
        ax.set_xlabel("papers")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.tick_params(axis="y", length=0)
        ax.grid(axis="x", color=GRID, linewidth=0.6)
        ax.set_axisbelow(True)
    return fig


def heatmap(network: nx.Graph, row_types, col_types, limit: int = 12):
    """Papers shared by the most studied row x column entities; colour: association strength."""
    plt = _pyplot()
    import numpy as np

    def top(types):
        members = [n for n, d in network.nodes(data=True) if d["label"] in types and network.degree(n)]
        members.sort(key=lambda n: (-network.degree(n, weight="weight"), -network.nodes[n]["paper_count"],
                                    network.nodes[n]["name"]))
        return members[:limit]

    rows = top(set(row_types))
    # columns: those sharing most papers with the chosen rows; then drop rows left empty
    shared = {}
    for r in rows:
        for c in network[r]:
            if network.nodes[c]["label"] in set(col_types):
                shared[c] = shared.get(c, 0) + network[r][c]["weight"]
    cols = sorted(shared, key=lambda c: (-shared[c], -network.nodes[c]["paper_count"], network.nodes[c]["name"]))[:limit]
    rows = [r for r in rows if any(network.has_edge(r, c) for c in cols)]
    if not rows or not cols:
        return None
    counts = np.zeros((len(rows), len(cols)))
    strength = np.zeros((len(rows), len(cols)))
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            if network.has_edge(r, c):
                counts[i, j] = network[r][c]["weight"]
                strength[i, j] = network[r][c]["association_strength"]
    from matplotlib.colors import LogNorm

    fig, ax = plt.subplots(figsize=(max(4.5, 2.2 + 0.42 * len(cols)), max(3.2, 1.6 + 0.36 * len(rows))),
                           layout="constrained")
    present = strength[counts > 0]
    low, high = float(present.min()), float(present.max())
    norm = LogNorm(vmin=low / 1.5, vmax=high * 1.05 if high > low / 1.5 else low * 2)
    image = ax.imshow(np.where(counts > 0, strength, np.nan), cmap="Blues", aspect="auto", norm=norm)
    for i in range(len(rows)):
        for j in range(len(cols)):
            if counts[i, j]:
                dark = norm(strength[i, j]) > 0.6
                ax.text(j, i, f"{int(counts[i, j])}", ha="center", va="center", fontsize=8,
                        color="white" if dark else INK)
    ax.set_xticks(range(len(cols)), [_short(network.nodes[c]["name"], 24) for c in cols], rotation=50, ha="right")
    ax.set_yticks(range(len(rows)), [_short(network.nodes[r]["name"], 28) for r in rows])
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    bar = fig.colorbar(image, ax=ax, shrink=0.8, pad=0.02)
    bar.set_label("association strength (log scale)")
    from matplotlib.ticker import FuncFormatter, LogLocator

    bar.ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    bar.ax.yaxis.set_minor_formatter(FuncFormatter(lambda value, _: ""))
    bar.outline.set_visible(False)
    return fig


def community_map(network: nx.Graph, positions: dict, communities, labels: int = 24):
    """The co-occurrence network, coloured by community, with the most studied entities named."""
    plt = _pyplot()
    from matplotlib import patheffects
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    fig, ax = plt.subplots(figsize=(10, 7.5), layout="constrained")
    segments = [(positions[a], positions[b]) for a, b in network.edges()]
    widths = [0.3 + 0.5 * min(4, d["weight"]) for _, _, d in network.edges(data=True)]
    ax.add_collection(LineCollection(segments, colors="#cfd6dc", linewidths=widths, alpha=0.7, zorder=1))
    nodes = sorted(network, key=lambda n: network.nodes[n]["paper_count"])
    largest = max((network.nodes[n]["paper_count"] for n in nodes), default=1) or 1

    def colour(node):
        number = network.nodes[node].get("community") or 0
        return COMMUNITY_COLOURS[(number - 1) % len(COMMUNITY_COLOURS)] if 0 < number <= len(COMMUNITY_COLOURS) else "#c5cbd1"

    ax.scatter([positions[n][0] for n in nodes], [positions[n][1] for n in nodes],
               s=[12 + 260 * (network.nodes[n]["paper_count"] / largest) ** 0.5 for n in nodes],
               c=[colour(n) for n in nodes], edgecolors="white", linewidths=0.5, zorder=2)
    halo = [patheffects.withStroke(linewidth=2.5, foreground="white")]
    ranked = sorted(network, key=lambda n: (-network.nodes[n]["paper_count"], -network.degree(n, weight="weight"),
                                            network.nodes[n]["name"]))
    chosen: list = []
    for node in ranked:
        x, y = positions[node]
        if all((x - positions[c][0]) ** 2 + (y - positions[c][1]) ** 2 > 0.06**2 for c in chosen):
            chosen.append(node)
        if len(chosen) >= labels:
            break
    for node in chosen:
        ax.annotate(_short(network.nodes[node]["name"], 28), positions[node], xytext=(4, 3),
                    textcoords="offset points", fontsize=8.5, color=INK, path_effects=halo, zorder=3)
    handles = [Line2D([], [], marker="o", linestyle="", markersize=7, markerfacecolor=COMMUNITY_COLOURS[c.id - 1],
                      markeredgecolor="white", label=f"{c.id}. {_short(c.label, 46)}")
               for c in communities[: len(COMMUNITY_COLOURS)][:12]]
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8.5,
                  title="communities", title_fontsize=9, alignment="left")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.margins(0.04)
    ax.set_axis_off()
    return fig


def trend_lines(per_year: dict[int, int], shares: dict[str, dict[int, float]]):
    """Papers per year (bars) and the yearly share of papers mentioning the top entities (lines)."""
    plt = _pyplot()
    years = sorted(per_year)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained",
                                      gridspec_kw={"width_ratios": [1, 1.6]})
    left.bar([str(y) for y in years], [per_year[y] for y in years], color="#8a9299")
    left.set_title("papers per year", loc="left", fontsize=10, color=INK)
    left.grid(axis="y", color=GRID, linewidth=0.6)
    left.set_axisbelow(True)
    for index, (name, series) in enumerate(shares.items()):
        right.plot(years, [100 * series.get(y, 0.0) for y in years], marker="o", markersize=3,
                   color=COMMUNITY_COLOURS[index % len(COMMUNITY_COLOURS)], label=_short(name, 30))
    right.set_title("share of the year's papers mentioning …", loc="left", fontsize=10, color=INK)
    right.set_ylabel("% of papers")
    right.set_xticks(years, [str(y) for y in years])
    right.grid(color=GRID, linewidth=0.6)
    right.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    return fig


def venue_bars(per_venue: dict[str, int], limit: int = 20):
    """Papers per venue."""
    plt = _pyplot()
    items = list(per_venue.items())[:limit][::-1]
    fig, ax = plt.subplots(figsize=(6, 0.9 + 0.26 * len(items)), layout="constrained")
    ax.barh([_short(v, 40) for v, _ in items], [c for _, c in items], color="#76b7b2")
    ax.set_xlabel("papers")
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    return fig
