"""``kg export``: write a built graph to Neo4j, bulk-import files, a Cypher script or RDF."""

from __future__ import annotations

import logging
import shlex
from pathlib import Path

import click
from rich.markup import escape

from kg.cli.common import EXIT_FAILED, err, require_complete_build


class _BuildDir(click.Path):
    """An existing path; a directory must hold a complete build (see require_complete_build)."""

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        require_complete_build(path)
        return path


BUILD_DIR = _BuildDir(exists=True, path_type=Path)


@click.group("export")
def export() -> None:
    """Export a built graph (the OUTDIR of `kg build`) to databases and files."""


@export.command("neo4j")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("--uri", envvar="NEO4J_URI", default="bolt://localhost:7687", show_default=True,
              help="Bolt URI (env NEO4J_URI).")
@click.option("--user", envvar="NEO4J_USERNAME", default="neo4j", show_default=True,
              help="User name (env NEO4J_USERNAME).")
@click.option("--password", envvar="NEO4J_PASSWORD", default=None,
              help="Password (env NEO4J_PASSWORD; prompted for when missing). Never printed.")
@click.option("--database", default=None, help="Database name (default: the server's default).")
@click.option("--batch-size", type=click.IntRange(1), default=500, show_default=True,
              help="Rows per UNWIND batch.")
@click.option("--dialect", type=click.Choice(["neo4j", "falkordb"]), default="neo4j", show_default=True,
              help="Schema statements for Neo4j 5, or for FalkorDB's Bolt endpoint.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def export_neo4j(build_dir, uri, user, password, database, batch_size, dialect, quiet):
    """Load BUILD_DIR's graph into Neo4j: constraints first, then batched, idempotent MERGE.

    Re-running with the same graph changes nothing; after new papers were added
    it adds only what is new.

    \b
    Example:
      NEO4J_PASSWORD=secret kg export neo4j out --uri bolt://localhost:7687
    """
    from kg.export.files import read_graph
    from kg.export.neo4j import Neo4jExportError, connect, write_neo4j

    if password is None:
        password = click.prompt("Neo4j password", hide_input=True, err=True)
    # The driver logs a lost connection itself; the error below already says it, on one line.
    logging.getLogger("neo4j").addHandler(logging.NullHandler())
    try:
        graph = read_graph(build_dir)
        with connect(uri, user, password) as driver:
            stats = write_neo4j(graph, driver, database=database, batch_size=batch_size,
                                dialect=dialect, progress=not quiet)
    except (Neo4jExportError, FileNotFoundError) as error:
        # one line whatever the terminal's width; the message is text, not rich markup
        err.print(f"[red]error:[/] {escape(str(error))}", soft_wrap=True)
        raise SystemExit(EXIT_FAILED) from None
    click.echo(
        f"{stats.node_total} nodes and {stats.relationship_total} relationships "
        f"written to {uri}: {stats.nodes_created} nodes and {stats.relationships_created} "
        f"relationships created, in {stats.seconds:.1f} s"
    )


@export.command("neo4j-bulk")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the CSV files and import.sh.")
def export_neo4j_bulk(build_dir, output):
    """Write CSV files for `neo4j-admin database import full`, with the command in import.sh.

    \b
    Example:
      kg export neo4j-bulk out -o out/neo4j-import
    """
    from kg.export.files import read_graph
    from kg.export.neo4j_bulk import write_bulk_csv

    files = write_bulk_csv(read_graph(build_dir), output)
    click.echo(
        f"wrote {len(files.node_files)} node files and {len(files.relationship_files)} relationship "
        f"files to {output}; import with {files.script or 'neo4j-admin'}:"
    )
    click.echo(shlex.join(files.command()))


@export.command("cypher-script")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The .cypher file to write.")
@click.option("--dialect", type=click.Choice(["neo4j", "falkordb"]), default="neo4j", show_default=True)
def export_cypher_script(build_dir, output, dialect):
    """Write a .cypher script that `cypher-shell -f` runs to load the graph.

    \b
    Example:
      kg export cypher-script out -o graph.cypher && cypher-shell -f graph.cypher
    """
    from kg.export.files import read_graph
    from kg.export.neo4j import write_cypher_script

    write_cypher_script(read_graph(build_dir), output, dialect=dialect)
    click.echo(f"wrote {output}")


@export.command("rdf")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write.")
@click.option("--format", "fmt", type=click.Choice(["turtle", "ntriples", "jsonld"]), default=None,
              help="Default: from the extension (.ttl, .nt, .jsonld).")
@click.option("--base-iri", default=None, help="Base IRI of the nodes (default https://w3id.org/kg/id/).")
def export_rdf(build_dir, output, fmt, base_iri):
    """Write the graph as RDF on the kg ontology (Turtle, N-Triples or JSON-LD).

    \b
    Example:
      kg export rdf out -o graph.nt
    """
    from kg.export import rdf
    from kg.export.files import read_graph

    by_suffix = {".ttl": "turtle", ".nt": "ntriples", ".jsonld": "jsonld", ".json": "jsonld"}
    fmt = fmt or by_suffix.get(output.suffix.lower(), "turtle")
    writer = {"turtle": rdf.write_turtle, "ntriples": rdf.write_ntriples, "jsonld": rdf.write_jsonld}[fmt]
    writer(read_graph(build_dir), output, **({"base": base_iri} if base_iri else {}))
    click.echo(f"wrote {output} ({fmt})")


@export.command("ontology")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for kg.ttl (OWL), shapes.ttl (SHACL) and README.md.")
def export_ontology(output):
    """Write the kg ontology and its SHACL shapes, to load beside an RDF export or
    to validate one (e.g. pyshacl -s shapes.ttl graph.ttl).

    \b
    Example:
      kg export ontology -o ontology
    """
    import shutil

    from kg.namespace import ONTOLOGY_FILES, ontology_file

    output.mkdir(parents=True, exist_ok=True)
    for name in ONTOLOGY_FILES:
        shutil.copyfile(ontology_file(name), output / name)
        click.echo(f"wrote {output / name}")
