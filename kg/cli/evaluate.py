"""``kg evaluate``: score extraction against gold annotations."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table


@click.group()
def evaluate():
    """Score extraction against gold annotations."""


@evaluate.command("names")
@click.argument("gold", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("predicted", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def evaluate_names(gold, predicted, as_json):
    """Score PREDICTED papers.jsonl against GOLD entity names by type (per paper).

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg evaluate names tests/data/seeds_gold.jsonl out/papers.jsonl
    """
    import json

    from kg.evaluate.names import score_names

    def load(path):
        with path.open(encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]

    report = score_names(load(gold), load(predicted))
    if as_json:
        click.echo(json.dumps(report, indent=1))
        return
    _print_scores(report)


def _print_scores(report: dict) -> None:
    table = Table(show_edge=False)
    for column in ("", "precision", "recall", "F1", "tp", "predicted", "gold"):
        table.add_column(column, justify="left" if not column else "right")
    for name, s in report.items():
        table.add_row(name, f"{s['precision']:.3f}", f"{s['recall']:.3f}", f"{s['f1']:.3f}",
                      str(s["tp"]), str(s["predicted"]), str(s["gold"]))
    Console().print(table)
