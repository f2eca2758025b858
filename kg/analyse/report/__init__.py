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
    vosviewer/<net>_map.txt     VOSviewer map files (see kg.export.vosviewer)
    vosviewer/<net>_network.txt VOSviewer network files
    *.csv                       the tables

:func:`research_map` runs the analysis (:mod:`~kg.analyse.report.analysis`, a
:class:`MapResult`), then the renderers, each writing what it owns:
:mod:`~kg.analyse.report.figures` (matplotlib), the term map (:mod:`kg.viz.termmap`),
:mod:`~kg.analyse.report.networks` (GEXF, VOSviewer), :mod:`~kg.analyse.report.tables`
(CSV), and :mod:`~kg.analyse.report.document` (the report's blocks), which
:mod:`~kg.analyse.report.markdown` and :mod:`~kg.analyse.report.html` write.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from kg.analyse.report.analysis import MapResult, analyse_map, top_entities, without_generic
from kg.analyse.report.document import document
from kg.analyse.report.figures import draw_figures, write_figures
from kg.analyse.report.html import to_html
from kg.analyse.report.markdown import to_markdown
from kg.analyse.report.networks import write_networks
from kg.analyse.report.tables import write_tables
from kg.export.files import atomic_open
from kg.viz.termmap import term_map_payload, write_term_map

__all__ = ["MapResult", "research_map", "top_entities", "without_generic"]


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
    result = analyse_map(graph, title=title, top=top, min_papers=min_papers, seed=seed)
    if outdir is None:
        return result
    out = Path(outdir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    drawn = draw_figures(result, graph, overview=overview, seed=seed)
    result.outputs.update(write_figures(drawn, out / "figures"))
    if len(result.network):
        payload = term_map_payload(graph, result.network, result.positions, result.communities,
                                   title=result.field_name, min_papers=result.min_papers)
        result.outputs["termmap.html"] = write_term_map(out / "termmap.html", payload)
    result.outputs.update(write_networks(result, graph, out, graph_positions=drawn.graph_positions, seed=seed))
    result.outputs.update(write_tables(result, graph, out))
    blocks = document(result, graph, drawn.images)
    with atomic_open(out / "report.md") as handle:
        handle.write(to_markdown(blocks))
    with atomic_open(out / "report.html") as handle:
        handle.write(to_html(blocks, result.title))
    result.outputs["report.md"] = out / "report.md"
    result.outputs["report.html"] = out / "report.html"
    return result
