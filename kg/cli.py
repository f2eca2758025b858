"""The ``kg`` command line: thin commands over the library.

Exit codes: 0 done; 1 failed (bad input with ``--on-error fail``, missing
input, a server error); 2 usage error; 3 done, but some input records were
skipped (see ``manifest.jsonl``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from kg import __version__

EXIT_OK, EXIT_FAILED, EXIT_SKIPPED = 0, 1, 3
FORMATS = click.Choice(["text", "jsonl", "json", "csv", "bibtex"])
err = Console(stderr=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kg")
def main() -> None:
    """Build knowledge graphs of research literature from paper abstracts."""


def _input_options(command):
    command = click.option(
        "--format", "fmt", type=FORMATS, default=None,
        help="Input format for all inputs (default: by extension, else by content).",
    )(command)
    command = click.option(
        "--config", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
        help="spaCy config of the extraction pipeline (default: the shipped one).",
    )(command)
    command = click.option(
        "--workers", type=click.IntRange(1), default=1, show_default=True,
        help="Extraction processes.",
    )(command)
    command = click.option(
        "--batch-size", type=click.IntRange(1), default=64, show_default=True,
        help="Abstracts per spaCy batch.",
    )(command)
    command = click.option(
        "--on-error", type=click.Choice(["skip", "fail"]), default="skip", show_default=True,
        help="What to do with a malformed record: skip it (and list it in the manifest) or stop.",
    )(command)
    command = click.option(
        "--quiet", "-q", is_flag=True, help="No progress bar and no summary."
    )(command)
    return click.argument("inputs", nargs=-1, required=True)(command)


@main.command()
@_input_options
@click.option(
    "-o", "--output", "outdir", type=click.Path(file_okay=False, path_type=Path), required=True,
    help="Directory for papers.jsonl, manifest.jsonl, graph.json, graph.graphml, graph.ttl.",
)
@click.option("--base-iri", default=None, help="Base IRI of the RDF export.")
def build(inputs, outdir, fmt, config, workers, batch_size, on_error, quiet, base_iri):
    """Build a knowledge graph from INPUTS (files, directories or globs of abstracts).

    \b
    Example:
      kg build examples/iclr2025 -o out
    """
    from kg.build import build as run_build

    report = _run(
        run_build, inputs, outdir, fmt=fmt, config=config, workers=workers,
        batch_size=batch_size, on_error=on_error, base_iri=base_iri, progress=not quiet,
    )
    if not quiet:
        _print_summary(report)
    sys.exit(EXIT_SKIPPED if report.skipped else EXIT_OK)


@main.command()
@_input_options
@click.option(
    "-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), required=True,
    help="The papers.jsonl file to write.",
)
def extract(inputs, output, fmt, config, workers, batch_size, on_error, quiet):
    """Write the per-paper records of INPUTS (entities, relations, results) as JSON Lines."""
    from kg.build import build as run_build

    report = _run(
        run_build, inputs, None, fmt=fmt, config=config, workers=workers, batch_size=batch_size,
        on_error=on_error, outputs=("papers",), papers_path=output, progress=not quiet,
    )
    if not quiet:
        err.print(f"{report.papers_built} papers -> {output}")
        for issue in report.skipped:
            err.print(f"[yellow]skipped[/] {issue}")
    sys.exit(EXIT_SKIPPED if report.skipped else EXIT_OK)


@main.group()
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


def _run(function, *args, **kwargs):
    from kg.build import BuildError
    from kg.ingest import InputError

    try:
        return function(*args, **kwargs)
    except (BuildError, InputError, FileNotFoundError) as error:
        err.print(f"[red]error:[/] {error}")
        sys.exit(EXIT_FAILED)


def _print_summary(report) -> None:
    console = Console()
    console.print(
        f"[bold]{report.papers_read}[/] papers read, [bold]{report.papers_built}[/] built, "
        f"{report.duplicates} duplicates, {len(report.skipped)} skipped"
    )
    for reason, count in report.skip_reasons.most_common():
        console.print(f"  [yellow]skipped[/] {count} x {reason}")
    for issue in report.skipped[:10]:
        console.print(f"    {issue}")
    table = Table(title="Entities", show_edge=False)
    table.add_column("type")
    table.add_column("count", justify="right")
    for label, count in report.entities_by_type.items():
        table.add_row(label, str(count))
    console.print(table)
    console.print(
        f"{report.proposed} proposals, {report.relations} relations, {report.results} results, "
        f"{report.code_urls} code URLs"
    )
    top = Table(title="Most connected entities", show_edge=False)
    for column in ("name", "type", "degree"):
        top.add_column(column)
    for name, kind, degree in report.top_entities:
        top.add_row(name, kind, str(degree))
    console.print(top)
    for kind, path in report.outputs.items():
        console.print(f"  {kind:10} {path}")


if __name__ == "__main__":
    main()
