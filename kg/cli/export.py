"""``kg export``: write a built graph to Neo4j, bulk-import files, a Cypher script, RDF or any graph file."""

from __future__ import annotations

import logging
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click
from rich.markup import escape

from kg.cli.common import EXIT_FAILED, err, read_build, require_complete_build, stream_build
from kg.export.writers import RDF_FORMATS, WRITERS, GraphWriter, describe_formats, writer_for


class _BuildDir(click.Path):
    """An existing path; a directory must hold a complete build (see require_complete_build)."""

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        require_complete_build(path)
        return path


BUILD_DIR = _BuildDir(exists=True, path_type=Path)
T = TypeVar("T")
QUIET = click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")


def _say(quiet: bool, message: str) -> None:
    if not quiet:
        click.echo(message)


def _write_or_fail(write: Callable[[], T], output: Path) -> T:
    """Run ``write()``; a file or directory that cannot be written ends in one line, exit 1."""
    try:
        return write()
    except OSError as error:
        where = error.filename or output
        err.print(f"[red]error:[/] cannot write {escape(str(where))}: {escape(error.strerror or str(error))}; "
                  "choose another -o/--output", highlight=False)
        raise SystemExit(EXIT_FAILED) from None


@click.group("export")
def export() -> None:
    """Export the graph in BUILD_DIR (a build directory, or a graph.json) to databases and files."""


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
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
def export_neo4j(build_dir, uri, user, password, database, batch_size, dialect, quiet):
    """Load BUILD_DIR's graph into Neo4j: constraints first, then batched, idempotent MERGE.

    BUILD_DIR: a build directory (or a graph.json).

    Re-running with the same graph changes nothing; after new papers were added
    it adds only what is new.

    \b
    Example:
      NEO4J_PASSWORD=secret kg export neo4j out --uri bolt://localhost:7687
    """
    from kg.export.neo4j import Neo4jExportError, connect, write_neo4j

    # The driver logs a lost connection itself; the error below already says it, on one line.
    logging.getLogger("neo4j").addHandler(logging.NullHandler())

    def load(graph):
        nonlocal password
        if password is None:  # asked once the graph is found
            password = click.prompt("Neo4j password", hide_input=True, err=True)
        with connect(uri, user, password) as driver:
            return write_neo4j(graph, driver, database=database, batch_size=batch_size,
                               dialect=dialect, progress=not quiet)

    try:
        stats = stream_build(build_dir, load)
    except (Neo4jExportError, FileNotFoundError) as error:
        # one line whatever the terminal's width; the message is text, not rich markup
        err.print(f"[red]error:[/] {escape(str(error))}", soft_wrap=True)
        raise SystemExit(EXIT_FAILED) from None
    _say(quiet,
         f"{stats.node_total} nodes and {stats.relationship_total} relationships "
         f"written to {uri}: {stats.nodes_created} nodes and {stats.relationships_created} "
         f"relationships created, in {stats.seconds:.1f} s")


@export.command("neo4j-bulk")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the CSV files and import.sh.")
@QUIET
def export_neo4j_bulk(build_dir, output, quiet):
    """Write CSV files of BUILD_DIR's graph for `neo4j-admin database import full`, with the
    command in import.sh.

    BUILD_DIR: a build directory (or a graph.json).

    \b
    Example:
      kg export neo4j-bulk out -o out/neo4j-import
    """
    from kg.export.neo4j_bulk import write_bulk_csv

    files = stream_build(build_dir, lambda graph: _write_or_fail(lambda: write_bulk_csv(graph, output), output))
    _say(quiet,
         f"wrote {len(files.node_files)} node files and {len(files.relationship_files)} relationship "
         f"files to {output}; import with {files.script or 'neo4j-admin'}:")
    _say(quiet, shlex.join(files.command()))


@export.command("cypher-script")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The .cypher file to write.")
@click.option("--dialect", type=click.Choice(["neo4j", "falkordb"]), default="neo4j", show_default=True)
@QUIET
def export_cypher_script(build_dir, output, dialect, quiet):
    """Write a .cypher script that `cypher-shell -f` runs to load BUILD_DIR's graph.

    BUILD_DIR: a build directory (or a graph.json).

    \b
    Example:
      kg export cypher-script out -o graph.cypher && cypher-shell -f graph.cypher
    """
    from kg.export.neo4j import write_cypher_script

    _, graph = read_build(build_dir)
    _write_or_fail(lambda: write_cypher_script(graph, output, dialect=dialect), output)
    _say(quiet, f"wrote {output}")


@export.command("rdf")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write.")
@click.option("--format", "fmt", type=click.Choice(RDF_FORMATS), default=None,
              help="Default: from the extension (.ttl, .nt, .jsonld).")
@click.option("--base-iri", default=None, help="Base IRI of the nodes (default https://w3id.org/kg/id/).")
@QUIET
def export_rdf(build_dir, output, fmt, base_iri, quiet):
    """Write BUILD_DIR's graph as RDF on the kg ontology (Turtle, N-Triples or JSON-LD).

    BUILD_DIR: a build directory (or a graph.json).

    \b
    Example:
      kg export rdf out -o graph.nt
    """
    try:
        writer = writer_for(fmt, output, among=RDF_FORMATS)
    except ValueError:  # an extension of no RDF format: Turtle
        writer = WRITERS["turtle"]
    _write_graph(build_dir, output, writer, base_iri, quiet)


@export.command("file")
@click.argument("build_dir", type=BUILD_DIR)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write.")
@click.option("--format", "fmt", type=click.Choice(list(WRITERS)), default=None,
              help=f"Default: from the extension: {describe_formats()}.")
@click.option("--base-iri", default=None,
              help="Base IRI of the nodes, for the RDF formats (default https://w3id.org/kg/id/).")
@QUIET
def export_file(build_dir, output, fmt, base_iri, quiet):
    """Write BUILD_DIR's graph as a file in any format kg writes: node-link JSON, GraphML, RDF
    (Turtle, N-Triples, JSON-LD), GEXF for Gephi, or the results table.

    BUILD_DIR: a build directory (or a graph.json).

    \b
    Examples:
      kg export file out -o graph.gexf
      kg export file out -o graph.txt --format ntriples
    """
    try:
        writer = writer_for(fmt, output)
    except ValueError as error:
        raise click.BadParameter(f"{error}; or choose one with --format", param_hint="-o/--output") from None
    if base_iri and "base" not in writer.options:
        raise click.BadParameter(f"the {writer.name} format has no base IRI; it is for "
                                 f"{', '.join(RDF_FORMATS)}", param_hint="--base-iri")
    _write_graph(build_dir, output, writer, base_iri, quiet)


def _write_graph(build_dir: Path, output: Path, writer: GraphWriter, base_iri: str | None, quiet: bool) -> None:
    """Write BUILD_DIR's graph to ``output`` with ``writer``; say so unless ``quiet``."""
    _, graph = read_build(build_dir)
    options = writer.pick(base=base_iri)
    try:
        _write_or_fail(lambda: writer.write(graph, output, **options), output)
    except ValueError as error:  # a base IRI that is not one
        if not base_iri:
            raise
        raise click.BadParameter(str(error), param_hint="--base-iri") from None
    _say(quiet, f"wrote {output} ({writer.name})")


@export.command("ontology")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for kg.ttl (OWL), shapes.ttl (SHACL) and README.md.")
@QUIET
def export_ontology(output, quiet):
    """Write the kg ontology and its SHACL shapes, to load beside an RDF export or
    to validate one.

    \b
    Example:
      kg export ontology -o ontology
      pyshacl -s ontology/shapes.ttl -e ontology/kg.ttl out/graph.ttl
    """
    import shutil

    from kg.namespace import ONTOLOGY_FILES, ontology_file

    def write() -> None:
        output.mkdir(parents=True, exist_ok=True)
        for name in ONTOLOGY_FILES:
            shutil.copyfile(ontology_file(name), output / name)
            _say(quiet, f"wrote {output / name}")

    _write_or_fail(write, output)
