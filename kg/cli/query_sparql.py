"""``kg query sparql``: SPARQL over a built graph, in an embedded Oxigraph store."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.common import (
    EXIT_FAILED, EXIT_OK, err, print_table, require_complete_build, stdout_is_terminal, tab_separated,
)

FORMATS = ["table", "json", "csv", "tsv", "xml", "turtle", "ntriples"]


@click.command("sparql")
@click.argument("build_dir", required=False, type=click.Path(exists=True, path_type=Path))
@click.argument("query_text", metavar="[QUERY]", required=False)
@click.option("-f", "--file", "query_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read the query from a file (e.g. query.rq).")
@click.option("-e", "--example", "example", metavar="NAME",
              help="Run a shipped example query (see --list-examples).")
@click.option("--list-examples", is_flag=True, help="List the shipped example queries and exit.")
@click.option("--show-query", is_flag=True, help="Print the query text instead of running it.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="table (in a pipe: tab-separated, one line per row); SPARQL results as json, csv, "
                   "tsv, xml (SELECT, ASK); turtle, ntriples (CONSTRUCT, DESCRIBE).")
@click.option("--cache/--no-cache", default=None,
              help="Keep an on-disk store in BUILD_DIR/.oxigraph for fast repeated queries "
                   "(default: only for graph files of 8 MiB or more).")
@click.option("--allow-service", is_flag=True,
              help="Allow SERVICE clauses (they make HTTP requests to other servers).")
@click.option("--quiet", "-q", is_flag=True, help="Only the rows: no row count.")
def sparql(build_dir, query_text, query_file, example, list_examples, show_query, fmt, cache,
           allow_service, quiet):
    """Run a SPARQL query on BUILD_DIR (a build directory, or an RDF file: .ttl or .nt).

    The query is QUERY, or the contents of --file, or a shipped --example.
    Updates are refused. The vocabulary is in ontology/README.md; kg's prefixes
    (kgo:, rdf:, rdfs:, dcterms:, prov:, skos:, entity:, paper: ...) are declared for
    every query.

    \b
    Examples:
      kg build examples/iclr2025 -o out
      kg query sparql --list-examples
      kg query sparql out --example top_benchmarks
      kg query sparql out --example datasets_of_method --format csv
      kg query sparql out 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'
      kg query sparql out --file question.rq --format json
    """
    from kg.query import sparql as sp

    if list_examples:
        _list_examples(sp)
        sys.exit(EXIT_OK)
    sources = [s for s in (query_text, query_file, example) if s is not None]
    if len(sources) != 1:
        raise click.UsageError("give exactly one of QUERY, --file or --example")
    if example is not None:
        try:
            text = sp.get_example(example).text
        except KeyError as error:
            raise click.BadParameter(error.args[0], param_hint="--example") from None
    elif query_file is not None:
        try:
            text = query_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise click.BadParameter(f"cannot read {query_file}: {error}", param_hint="--file") from None
    else:
        text = query_text
    if show_query:
        click.echo(text, nl=not text.endswith("\n"))
        sys.exit(EXIT_OK)
    if build_dir is None:
        raise click.UsageError("missing BUILD_DIR (a build directory, or an RDF file: .ttl or .nt)")
    require_complete_build(build_dir)

    try:
        store = sp.load_store(build_dir, cache=cache)
        if fmt == "table":
            from rich.console import Console

            result = sp.query(store, text, allow_service=allow_service)
            if not stdout_is_terminal():
                click.echo(tab_separated(*sp.table_cells(result)))
                sys.exit(EXIT_OK)
            console = Console()
            caption = f"{len(result)} row{'s' if len(result) != 1 else ''}" if result.form != "ASK" else None
            table = sp.format_table(result)
            table.caption = None if quiet else caption
            console.print(table)
        else:
            out = sys.stdout.buffer
            sp.write_results(store, text, out, fmt, allow_service=allow_service)
            out.flush()
    except (sp.SparqlError, FileNotFoundError) as error:
        from rich.markup import escape

        err.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
        sys.exit(EXIT_FAILED)
    sys.exit(EXIT_OK)


def _list_examples(sp) -> None:
    print_table(["name", "form", "question"], [(e.name, e.form, e.question) for e in sp.examples()])


if __name__ == "__main__":  # python -m kg.cli.query_sparql
    sparql()
