"""The report's figures, drawn from a :class:`MapResult` (matplotlib) and written to ``figures/``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg.analyse import plots
from kg.analyse.cooccurrence import PAIR_NETWORKS
from kg.analyse.report.analysis import MapResult, year_span
from kg.export.files import atomic_open
from kg.viz.static import OVERVIEW_NODE_LIMIT

__all__ = ["Figures", "draw_figures", "figure_file", "write_figures"]


@dataclass
class Figures:
    """What :func:`draw_figures` drew."""

    #: name -> SVG text (or PNG bytes), in the order drawn
    images: dict[str, str | bytes] = field(default_factory=dict)
    #: the term map also as PNG (for slides and documents that take no SVG)
    term_map_png: bytes | None = None
    #: the layout of the whole graph's picture, which graph.gexf reuses (None: not drawn)
    graph_positions: dict | None = None


def figure_file(name: str, content: str | bytes) -> str:
    """The file name of a figure: ``.png`` for bytes, ``.svg`` for text."""
    return f"{name}.{'png' if isinstance(content, bytes) else 'svg'}"


def draw_figures(result: MapResult, graph: nx.MultiDiGraph, *, overview: bool = True, seed: int = 42) -> Figures:
    """Every figure the report has data for; the whole ``graph`` too when ``overview`` and small enough.

    The order is kept: the overview sets kg's matplotlib style, which the later figures use.
    """
    drawn = Figures()
    if any(result.top.values()):
        drawn.images["top-entities"] = plots.svg(plots.bar_charts(
            {k: [(r["name"], r["papers"]) for r in v] for k, v in result.top.items()}))
    if overview and graph.number_of_nodes() <= OVERVIEW_NODE_LIMIT:
        from kg.viz.html import layout_positions
        from kg.viz.static import draw_overview

        plots.apply_style()
        drawn.graph_positions = layout_positions(graph, seed=seed)
        picture = draw_overview(graph, positions=drawn.graph_positions, title=result.field_name)
        drawn.images["overview"] = plots.svg(picture)
    network = result.network
    if len(network):
        title = f"{result.field_name}: {len(network):,} entities in ≥ {result.min_papers} papers"
        drawn.images["term-map"], drawn.term_map_png = plots.svg_and_png(
            plots.term_map(network, result.positions, result.communities, title=title))
    for name, (rows, cols) in PAIR_NETWORKS.items():
        figure = plots.heatmap(result.pair_networks[name], rows, cols)
        if figure is not None:
            drawn.images[f"cooccurrence-{name}"] = plots.svg(figure)
    _draw_trends(result, drawn)
    if len(result.per_venue) >= 2:
        drawn.images["venues"] = plots.svg(plots.venue_bars(result.per_venue))
    return drawn


def _draw_trends(result: MapResult, drawn: Figures) -> None:
    """Papers and entity shares per year; the rising and falling entities."""
    if len(result.per_year) >= 2:
        drawn.images["trends"] = plots.svg(plots.trend_lines(result.per_year, result.year_shares))
    trend = result.trend
    if trend and (trend.rising or trend.falling):
        rows = [(s.name, s.share_out, s.share_in) for s in trend.rising[:10] + trend.falling[:10]]
        drawn.images["rising-falling"] = plots.svg(
            plots.shift_bars(rows, before=year_span(trend.earlier), after=str(trend.latest), limit=20))


def write_figures(drawn: Figures, directory: Path) -> dict[str, Path]:
    """Each figure as a file in ``directory`` (which exists); ``{"figure:<name>": path}``."""
    outputs: dict[str, Path] = {}
    if drawn.term_map_png is not None:
        path = directory / "term-map.png"
        with atomic_open(path, "wb") as handle:
            handle.write(drawn.term_map_png)
        outputs["figure:term-map.png"] = path
    for name, content in drawn.images.items():
        path = directory / figure_file(name, content)
        with atomic_open(path, "wb") as handle:
            handle.write(content if isinstance(content, bytes) else content.encode("utf-8"))
        outputs[f"figure:{name}"] = path
    return outputs
