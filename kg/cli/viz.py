"""``kg viz``: the interactive offline page of a built graph, and a static overview image."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import err, read_build_graph


@click.command()
@click.argument("outdir", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The HTML page to write (default: OUTDIR/graph.html).",
)
@click.option(
    "--image", "images", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
    help="Overview image(s) to write; format by extension (.png, .svg, .pdf). Repeatable. "
    "Default: overview.png and overview.svg next to the page.",
)
@click.option("--no-image", is_flag=True, help="Write the page only.")
@click.option("--title", default=None, help="Page title (default: the build directory's name).")
@click.option("--seed", type=int, default=42, show_default=True, help="Seed of the layout's start positions.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
def viz(outdir, output, images, no_image, title, seed, quiet):
    """Draw the graph built in OUTDIR (or a graph.json) as one self-contained HTML page.

    The page works offline (sigma.js and graphology are inlined): nodes coloured by type,
    search, filter by type, click a node for its papers and evidence sentences.

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg viz out                      # out/graph.html, out/overview.png, out/overview.svg
      kg viz out -o field.html --image field.pdf
    """
    from kg.viz.html import layout_positions, write_html

    source, graph = read_build_graph(outdir)
    output = output or source.parent / "graph.html"
    title = title or f"Knowledge graph: {source.parent.resolve().name}"
    positions = layout_positions(graph, seed=seed)
    write_html(graph, output, title=title, positions=positions)
    written = [output]
    if not no_image:
        from kg.viz.static import write_overview

        images = images or (output.parent / "overview.png", output.parent / "overview.svg")
        written += write_overview(graph, images, positions=positions, title=title)
    if not quiet:
        labels = {}
        for _, data in graph.nodes(data=True):
            labels[data.get("label")] = labels.get(data.get("label"), 0) + 1
        err.print(f"{graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} edges")
        for path in written:
            click.echo(str(path))
