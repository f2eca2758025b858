"""``kg map``: research mapping of a built graph (report, figures, Gephi and VOSviewer files)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import err, read_build_graph


@click.command(name="map")
@click.argument("outdir", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o", "--output", "report_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Directory for the report and exports (default: OUTDIR/map).",
)
@click.option("--title", default=None, help="Report title (default: from the build directory's name).")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True, help="Entities listed per type.")
@click.option(
    "--min-papers", type=click.IntRange(1), default=None,
    help="Leave entities in fewer papers out of the co-occurrence networks (default: 1 below 200 papers, else 2).",
)
@click.option("--seed", type=int, default=42, show_default=True, help="Seed of communities and layouts.")
@click.option("--no-overview", is_flag=True, help="Leave out the picture of the whole graph (faster on big graphs).")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
def map_command(outdir, report_dir, title, top, min_papers, seed, no_overview, quiet):
    """Map the research field in the graph built in OUTDIR (or a graph.json).

    Most studied entities per type; dataset x method, method x task and model x dataset
    co-occurrence (association strength, as VOSviewer); communities with labels;
    centrality; trends, venues and bursts when the papers span years. Writes report.html
    (self-contained), report.md, figures/, graph.gexf and cooccurrence.gexf (Gephi),
    vosviewer/*_map.txt and *_network.txt (VOSviewer) and CSV tables.

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg map out                      # out/map/report.html, out/map/report.md, ...
      kg map out -o field-map --top 20
    """
    from kg.analyse.report import research_map

    source, graph = read_build_graph(outdir)
    report_dir = report_dir or source.parent / "map"
    title = title or f"Research map: {source.parent.resolve().name}"
    result = research_map(graph, report_dir, title=title, top=top, min_papers=min_papers, seed=seed,
                          overview=not no_overview)
    if not quiet:
        err.print(
            f"{result.papers:,} papers, {result.network.number_of_nodes():,} co-occurring entities, "
            f"{len(result.communities)} communities, {len(result.bursts)} bursts"
        )
        for community in result.communities[:5]:
            err.print(f"  {community.id}. {community.label} ({len(community.members)} entities)")
        click.echo(str(result.outputs["report.html"]))
        click.echo(str(result.outputs["report.md"]))
