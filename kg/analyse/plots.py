"""The report's figures (matplotlib, returned as SVG text)."""

from __future__ import annotations

import io

import networkx as nx

from kg.viz.html import TYPE_COLOURS
from kg.viz.static import COMMUNITY_COLOURS, draw_term_map
from kg.viz.static import short_label as _short

__all__ = ["COMMUNITY_COLOURS", "apply_style", "bar_charts", "heatmap", "png", "shift_bars", "svg", "svg_and_png",
           "term_map", "trend_lines", "venue_bars"]

INK, MUTED, GRID = "#1d2329", "#69737d", "#e3e6ea"
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


def apply_style() -> None:
    """The report's matplotlib style (Agg, SVG text kept as text, fixed ids)."""
    _pyplot()


def svg_and_png(fig, dpi: int = 150) -> tuple[str, bytes]:
    """The figure as SVG text and PNG bytes, drawn once; closes it."""
    plt = _pyplot()
    text, image = io.StringIO(), io.BytesIO()
    try:
        fig.savefig(text, format="svg", metadata={"Date": None})
        fig.savefig(image, format="png", dpi=dpi)
    finally:
        plt.close(fig)
    return text.getvalue()[text.getvalue().index("<svg"):], image.getvalue()


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


def term_map(network: nx.Graph, positions: dict, communities, *, title: str | None = None, labels: int = 80):
    """The co-occurrence network as a term map (see :func:`kg.viz.static.draw_term_map`)."""
    _pyplot()
    return draw_term_map(network, positions, communities, title=title, labels=labels)


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
    fig.legend(loc="outside right upper", frameon=False, fontsize=8)
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


def shift_bars(rows: list[tuple[str, float, float]], *, before: str, after: str, limit: int = 15):
    """Share of papers mentioning each entity ``before`` and ``after`` (percent): one dumbbell per row."""
    plt = _pyplot()
    rows = rows[:limit][::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.3 * len(rows)), layout="constrained")
    for y, (_, first, second) in enumerate(rows):
        ax.plot([100 * first, 100 * second], [y, y], color="#c9d0d6", linewidth=2, zorder=1)
    ax.scatter([100 * r[1] for r in rows], range(len(rows)), color="#8a9299", s=28, zorder=2, label=before)
    ax.scatter([100 * r[2] for r in rows], range(len(rows)), color="#e15759", s=28, zorder=3, label=after)
    ax.set_yticks(range(len(rows)), [_short(name, 34) for name, _, _ in rows])
    ax.set_xlabel("% of papers mentioning it")
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    fig.legend(loc="outside right upper", frameon=False, fontsize=8)
    return fig
