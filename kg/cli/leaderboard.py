"""``kg leaderboard``: the results of a built graph as leaderboards per (task, dataset, metric)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.common import EXIT_FAILED, err, read_build


@click.command(name="leaderboard")
@click.argument("build_dir", type=click.Path(exists=True, path_type=Path))
@click.option("--dataset", default=None, help="Only boards on this dataset (name, any case or hyphenation).")
@click.option("--task", default=None, help="Only boards of this task.")
@click.option("--metric", default=None, help="Only boards of this metric.")
@click.option("--format", "fmt", type=click.Choice(["md", "csv", "json"]), default="md", show_default=True,
              help="Markdown tables with evidence, or one row per entry (CSV, JSON).")
@click.option("--min-entries", type=click.IntRange(1), default=1, show_default=True,
              help="Leave out boards with fewer entries.")
@click.option("--no-evidence", is_flag=True, help="Markdown without the evidence sentences.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of standard output.")
def leaderboard(build_dir, dataset, task, metric, fmt, min_entries, no_evidence, output):
    """Print the results of the graph in BUILD_DIR (a build directory, or a graph.json) as leaderboards.

    Per (task, dataset, metric): the methods and papers ranked by the score they
    state (high to low, or low to high for metrics where lower is better), then the
    results that state only a change over a baseline; each entry with its paper and
    the sentence it comes from. A board needs a metric and a dataset or a task.
    Abstracts state fewer results than papers: these are the results the abstracts
    give.

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg leaderboard out
      kg leaderboard out --dataset GSM8K --format csv -o gsm8k.csv
    """
    import json

    import networkx as nx

    from kg.analyse.leaderboard import board_rows, leaderboards, result_rows, to_markdown

    try:
        _, graph = read_build(build_dir)
        rows = result_rows(graph)
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError,
            nx.NetworkXError):
        err.print(f"[red]error:[/] {build_dir} is not a kg build or graph.json (run `kg build INPUTS -o BUILD_DIR`)")
        sys.exit(EXIT_FAILED)
    boards = leaderboards(rows, dataset=dataset, task=task, metric=metric, min_entries=min_entries)
    if not boards:
        wanted = ", ".join(f"{k} {v!r}" for k, v in (("dataset", dataset), ("task", task), ("metric", metric)) if v)
        err.print(f"[red]error:[/] no leaderboard{' for ' + wanted if wanted else ''} in {build_dir}: "
                  "no results with a metric and a dataset or task")
        sys.exit(EXIT_FAILED)
    if fmt == "md":
        text = to_markdown(boards, evidence=not no_evidence)
    elif fmt == "json":
        text = json.dumps(board_rows(boards), indent=1, ensure_ascii=False) + "\n"
    else:
        text = _csv(board_rows(boards))
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        err.print(f"{len(boards)} leaderboards -> {output}")


def _csv(rows: list[dict]) -> str:
    import csv
    import io

    from kg.export.tables import spreadsheet_cell

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = list(rows[0])
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row[c] is None else spreadsheet_cell(row[c]) for c in columns])
    return out.getvalue()
