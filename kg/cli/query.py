"""``kg query``: Cypher and SPARQL over a built graph, in engines kg starts and stops itself."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.common import (
    EXIT_FAILED, err, print_table, require_complete_build, stdout_is_terminal, stop_on_sigterm, tab_separated,
)
from kg.cli.query_sparql import sparql


@click.group("query")
def query() -> None:
    """Query the graph in BUILD_DIR (a build directory) with Cypher or SPARQL."""


query.add_command(sparql)


@query.command("cypher")
@click.argument("build_dir", required=False, type=click.Path(exists=True, path_type=Path))
@click.argument("cypher", required=False)
@click.option("--example", "example", default=None, help="Run one of the shipped example queries.")
@click.option("--list-examples", is_flag=True, help="List the example queries and exit.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="A query parameter ($NAME); VALUE is JSON if it parses, else a string.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table (in a pipe: tab-separated, one line per row) or json.")
@click.option("--timeout", type=click.IntRange(1), default=60, show_default=True, help="Seconds.")
@click.option("--quiet", "-q", is_flag=True, help="Only the rows: no row count.")
def query_cypher(build_dir, cypher, example, list_examples, params, fmt, timeout, quiet):
    """Run CYPHER on BUILD_DIR's graph in an embedded FalkorDB that kg starts and stops.

    BUILD_DIR: a build directory (or a graph.json).

    The labels and relationship types are those `kg export neo4j` writes, so a
    query tried here runs on Neo4j too.

    \b
    Examples:
      kg query cypher out "MATCH (d:Dataset)<-[:EVALUATED_ON]-(m) RETURN d.name, count(m) ORDER BY count(m) DESC"
      kg query cypher --list-examples
      kg query cypher out --example top_benchmarks
      kg query cypher out --example datasets_of_method --param name=AFLOW
    """
    from rich.markup import escape

    from kg.query.cypher import CypherError, run_cypher
    from kg.query.examples_cypher import EXAMPLE_QUERIES

    if list_examples:
        _list_examples(EXAMPLE_QUERIES)
        return
    cypher, values = _chosen_query(cypher, example)
    if build_dir is None:
        raise click.UsageError("missing BUILD_DIR (a build directory, as `kg build -o BUILD_DIR` writes)")
    require_complete_build(build_dir)
    values.update(_parse_params(params))
    _require_params(cypher, values)
    try:
        with stop_on_sigterm():
            columns, rows = run_cypher(build_dir, cypher, values, timeout_ms=timeout * 1000)
    except (CypherError, FileNotFoundError) as error:
        err.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
        raise SystemExit(EXIT_FAILED) from None
    _echo_rows(columns, rows, fmt, quiet)


def _chosen_query(cypher: str | None, example: str | None) -> tuple[str, dict]:
    """The query to run and its preset parameters: the named example's, else CYPHER with none."""
    from kg.query.examples_cypher import example_query

    values = {}
    if example:
        try:
            chosen = example_query(example)
        except KeyError:
            raise click.BadParameter(f"no example named {example!r} (see --list-examples)",
                                     param_hint="--example") from None
        cypher, values = chosen.cypher, dict(chosen.params)
    if not cypher:
        raise click.UsageError("give a Cypher query or --example NAME (--list-examples lists them)")
    return cypher, values


def _parse_params(params) -> dict:
    """``--param NAME=VALUE`` options as ``{NAME: VALUE}``; VALUE is JSON when it parses, else the string."""
    values = {}
    for item in params:
        name, equals, raw = item.partition("=")
        if not equals or not name:
            raise click.BadParameter(f"{item!r} is not NAME=VALUE", param_hint="--param")
        try:
            values[name] = json.loads(raw)
        except json.JSONDecodeError:
            values[name] = raw
    return values


def _require_params(cypher: str, values: dict) -> None:
    """Stop with a usage error naming each ``$NAME`` the query uses but no parameter gives."""
    from kg.query.cypher import query_parameters

    missing = [name for name in query_parameters(cypher) if name not in values]
    if missing:
        raise click.UsageError(
            "the query needs " + ", ".join(f"${name}" for name in missing) + ": give "
            + ("it" if len(missing) == 1 else "each") + " with " + " ".join(f"--param {name}=VALUE" for name in missing)
        )


def _echo_rows(columns, rows, fmt: str, quiet: bool) -> None:
    """Print the rows as JSON, as tab-separated lines in a pipe, or as a table (without its count when quiet)."""
    from kg.query.cypher import _cell, format_json, format_table

    if fmt == "json":
        click.echo(format_json(columns, rows))
    elif not stdout_is_terminal():
        click.echo(tab_separated(columns, [[_cell(value) for value in row] for row in rows]))
    else:
        table = format_table(columns, rows)
        click.echo(table.rsplit("\n", 1)[0] if quiet else table)


def _list_examples(queries) -> None:
    """The example queries: a table on a terminal, tab-separated lines in a pipe (as in sparql)."""
    rows = [(q.name, ", ".join(f"${name}" for name in q.params) or "-", q.question) for q in queries]
    print_table(["name", "parameters", "question"], rows)
