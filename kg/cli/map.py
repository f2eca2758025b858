"""``kg map``: research mapping of a built graph (report, figures, Gephi and VOSviewer files)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import err, read_build


@click.command(name="map")
@click.argument("build_dir", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o", "--output", "report_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Directory for the report and exports (default: BUILD_DIR/map).",
)
@click.option("--title", default=None,
              help="Title of the report, its figures and the term map (default: the venues and years of the papers).")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True, help="Entities listed per type.")
@click.option(
    "--min-papers", type=click.IntRange(1), default=None,
    help="Leave entities in fewer papers out of the co-occurrence networks and the term map "
    "(default: 1 below 200 papers, else 2).",
)
@click.option("--include-generic", is_flag=True,
              help="Keep entities flagged generic (e.g. 'machine learning model'); left out by default.")
@click.option("--seed", type=int, default=42, show_default=True, help="Seed of communities and layouts.")
@click.option("--no-overview", is_flag=True, help="Leave out the picture of the whole graph (faster on big graphs).")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
def map_command(build_dir, report_dir, title, top, min_papers, include_generic, seed, no_overview, quiet):
    """Map the research field in the graph in BUILD_DIR (a build directory, or a graph.json).

    An interactive term map (termmap.html: entities placed by co-occurrence, coloured
    by community, density view, overlays by year and venue, click for papers and
    evidence; offline); most studied entities per type; dataset x method, method x
    task and model x dataset co-occurrence (association strength, as VOSviewer);
    communities; centrality; rising and falling entities, new entities and what each
    venue emphasises when the papers span years or venues. Writes report.html
    (self-contained), report.md, figures/ (SVG; the term map also as PNG), graph.gexf
    and cooccurrence.gexf (Gephi), vosviewer/*_map.txt and *_network.txt (VOSviewer)
    and CSV tables.

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg map out                      # out/map/termmap.html, out/map/report.html, ...
      kg map out -o field-map --top 20 --title "ICLR 2025"
    """
    from kg.analyse.report import research_map

    build, graph = read_build(build_dir)
    report_dir = report_dir or build.map
    result = research_map(graph, report_dir, title=title, top=top, min_papers=min_papers, seed=seed,
                          overview=not no_overview, include_generic=include_generic)
    if not quiet:
        err.print(
            f"{result.title}: {result.papers:,} papers, {result.network.number_of_nodes():,} co-occurring "
            f"entities, {len(result.communities)} communities"
        )
        for community in result.communities[:5]:
            err.print(f"  {community.id}. {community.label} ({len(community.members)} entities)")
        if result.trend is not None:
            trend = result.trend
            err.print(f"  {trend.latest} against {', '.join(map(str, trend.earlier))}: "
                      f"{len(trend.rising)} rising, {len(trend.falling)} falling (|z| >= {trend.threshold:g})")
        if result.confounded:
            err.print("  [yellow]note:[/] each venue has papers of one year only: year and venue changes coincide")
        for name in ("termmap.html", "report.html", "report.md"):
            if name in result.outputs:
                click.echo(str(result.outputs[name]))
