"""``kg viz``: the interactive offline page of a built graph, and a static overview image."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import err, read_build


@click.command()
@click.argument("build_dir", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The HTML page to write (default: BUILD_DIR/graph.html).",
)
@click.option(
    "--image", "images", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
    help="Overview image(s) to write; format by extension (.png, .svg, .pdf). Repeatable. "
    "Default: overview.png and overview.svg next to the page. Above 2,500 nodes the overview "
    "is the term map (entities only, placed by co-occurrence), not every node.",
)
@click.option("--no-image", is_flag=True, help="Write the page only.")
@click.option("--title", default=None, help="Page and figure title (default: the venues and years of the papers).")
@click.option("--seed", type=int, default=42, show_default=True, help="Seed of the layout's start positions.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
def viz(build_dir, output, images, no_image, title, seed, quiet):
    """Draw the graph in BUILD_DIR (a build directory, or a graph.json) as one self-contained HTML page.

    The page works offline (sigma.js and graphology are inlined): nodes coloured by type,
    names placed without overlap, search, filter by type, click a node for its papers and
    evidence sentences. For a research map of a large field, see ``kg map``.

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg viz out                      # out/graph.html, out/overview.png, out/overview.svg
      kg viz out -o field.html --image field.pdf --title "ICLR 2025"
    """
    from kg.viz.html import layout_positions, write_html
    from kg.viz.static import OVERVIEW_NODE_LIMIT, field_title

    build, graph = read_build(build_dir)
    output = output or build.page
    title = title or field_title(graph)
    positions = layout_positions(graph, seed=seed)
    write_html(graph, output, title=title, positions=positions)
    written = [output]
    if not no_image:
        from kg.viz.static import draw_overview, draw_term_map, save_figure

        images = images or (output.parent / "overview.png", output.parent / "overview.svg")
        if graph.number_of_nodes() > OVERVIEW_NODE_LIMIT:
            from kg.analyse.termmap import term_network

            network, communities, places = term_network(graph, seed=seed)
            figure = draw_term_map(network, places, communities, title=f"{title}: term map")
        else:
            figure = draw_overview(graph, positions=positions, title=title)
        written += save_figure(figure, images)
    if not quiet:
        err.print(f"{graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} edges")
        for path in written:
            click.echo(str(path))
