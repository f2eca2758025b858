"""``kg query``: Cypher and SPARQL over a built graph, in engines kg starts and stops itself."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.common import EXIT_FAILED, err, require_complete_build, stop_on_sigterm
from kg.cli.query_sparql import sparql


@click.group("query")
def query() -> None:
    """Query a built graph (the OUTDIR of `kg build`) with Cypher or SPARQL."""


query.add_command(sparql)


@query.command("cypher")
@click.argument("build_dir", type=click.Path(exists=True, path_type=Path))
@click.argument("cypher", required=False)
@click.option("--example", "example", default=None, help="Run one of the shipped example queries.")
@click.option("--list-examples", is_flag=True, help="List the example queries and exit.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="A query parameter ($NAME); VALUE is JSON if it parses, else a string.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--timeout", type=click.IntRange(1), default=60, show_default=True, help="Seconds.")
def query_cypher(build_dir, cypher, example, list_examples, params, fmt, timeout):
    """Run CYPHER on BUILD_DIR's graph in an embedded FalkorDB that kg starts and stops.

    The labels and relationship types are those `kg export neo4j` writes, so a
    query tried here runs on Neo4j too.

    \b
    Examples:
      kg query cypher out "MATCH (d:Dataset)<-[:EVALUATED_ON]-(m) RETURN d.name, count(m) ORDER BY count(m) DESC"
      kg query cypher out --example top_benchmarks
      kg query cypher out --example datasets_of_method --param name=AFLOW
    """
    from kg.query.cypher import CypherError, format_json, format_table, run_cypher
    from kg.query.examples_cypher import EXAMPLE_QUERIES, example_query

    if list_examples:
        for q in EXAMPLE_QUERIES:
            click.echo(f"{q.name:28} {q.question}")
        return
    values = {}
    if example:
        try:
            chosen = example_query(example)
        except KeyError:
            raise click.BadParameter(f"no example named {example!r} (see --list-examples)") from None
        cypher, values = chosen.cypher, dict(chosen.params)
    if not cypher:
        raise click.UsageError("give a Cypher query or --example NAME")
    require_complete_build(build_dir)
    for item in params:
        name, _, raw = item.partition("=")
        try:
            values[name] = json.loads(raw)
        except json.JSONDecodeError:
            values[name] = raw
    try:
        with stop_on_sigterm():
            columns, rows = run_cypher(build_dir, cypher, values, timeout_ms=timeout * 1000)
    except (CypherError, FileNotFoundError) as error:
        err.print(f"[red]error:[/] {error}")
        raise SystemExit(EXIT_FAILED) from None
    click.echo(format_json(columns, rows) if fmt == "json" else format_table(columns, rows))
