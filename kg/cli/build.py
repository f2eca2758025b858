"""``kg build``, ``kg extract``, ``kg evaluate``."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kg.cli.common import EXIT_FAILED, EXIT_OK, EXIT_SKIPPED, err

FORMATS = click.Choice(["text", "jsonl", "json", "csv", "bibtex"])


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
        "--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
        help="Where the build runs: local processes, or a Dask cluster (pip install 'research-kg[dask]'): "
             "kg build resolves, assembles and writes there too (the same files; docs/scale.md).",
    )(command)
    command = click.option(
        "--scheduler", default=None, metavar="ADDRESS",
        help="Dask scheduler address (tcp://host:8786); default: a local cluster of --workers.",
    )(command)
    command = click.option(
        "--on-error", type=click.Choice(["skip", "fail"]), default="skip", show_default=True,
        help="What to do with a malformed record: skip it (and list it in the manifest) or stop.",
    )(command)
    command = click.option(
        "--record-timeout", type=click.FloatRange(0, min_open=True), default=60.0, show_default=True,
        metavar="SECONDS",
        help="Time one paper may take to extract; a paper past it is skipped and listed in the manifest.",
    )(command)
    command = click.option(
        "--quiet", "-q", is_flag=True, help="No progress bar and no summary."
    )(command)
    return click.argument("inputs", nargs=-1, required=True)(command)


@click.command()
@_input_options
@click.option(
    "-o", "--output", "build_dir", metavar="BUILD_DIR", type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The build directory to write: papers.jsonl, manifest.jsonl, graph.json, graph.graphml, graph.ttl.",
)
@click.option("--base-iri", default=None, help="Base IRI of the RDF export.")
@click.option(
    "--cache/--no-cache", default=True, show_default=True,
    help="Keep extraction records in BUILD_DIR/.kg-cache; a re-run extracts only new papers.",
)
def build(inputs, build_dir, fmt, config, workers, batch_size, engine, scheduler, on_error, record_timeout,
          quiet, base_iri, cache):
    """Build a knowledge graph from INPUTS (files, directories or globs of abstracts) into BUILD_DIR.

    BUILD_DIR (-o) is the build directory every other command reads.

    \b
    Example:
      kg build examples/iclr2025 -o out
    """
    from kg.build import build as run_build

    report = _run(
        run_build, inputs, build_dir, fmt=fmt, config=config, workers=workers,
        batch_size=batch_size, engine=engine, scheduler=scheduler, on_error=on_error,
        base_iri=base_iri, cache=cache, progress=not quiet, record_timeout=record_timeout,
    )
    if not quiet:
        _print_summary(report)
    sys.exit(EXIT_SKIPPED if report.skipped else EXIT_OK)


@click.command()
@_input_options
@click.option(
    "-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), required=True,
    help="The papers.jsonl file to write.",
)
def extract(inputs, output, fmt, config, workers, batch_size, engine, scheduler, on_error, record_timeout,
            quiet):
    """Write the per-paper records of INPUTS (entities, relations, results) as JSON Lines."""
    from kg.build import build as run_build

    report = _run(
        run_build, inputs, None, fmt=fmt, config=config, workers=workers, batch_size=batch_size,
        engine=engine, scheduler=scheduler, on_error=on_error, outputs=("papers",),
        papers_path=output, progress=not quiet, record_timeout=record_timeout,
    )
    if not quiet:
        err.print(f"{report.papers_built} papers -> {output}")
        for issue in report.skipped:
            err.print(f"[yellow]skipped[/] {issue}")
    sys.exit(EXIT_SKIPPED if report.skipped else EXIT_OK)


def _run(function, *args, **kwargs):
    from concurrent.futures.process import BrokenProcessPool

    from rich.markup import escape

    from kg.build import BuildError
    from kg.extract.pipeline import PipelineConfigError
    from kg.ingest import InputError

    try:
        return function(*args, **kwargs)
    except (BuildError, InputError, PipelineConfigError, FileNotFoundError) as error:
        err.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
    except BrokenProcessPool:
        err.print("[red]error:[/] an extraction worker process died (out of memory?); "
                  "try fewer --workers or a smaller --batch-size")
    except OSError as error:  # kg extract -o FILE writes outside a build directory
        err.print(f"[red]error:[/] cannot write {escape(str(error.filename or ''))}: "
                  f"{escape(error.strerror or str(error))}", highlight=False)
    sys.exit(EXIT_FAILED)


def _print_summary(report) -> None:
    console = Console()
    console.print(
        f"[bold]{report.papers_read}[/] papers read, [bold]{report.papers_built}[/] built, "
        f"{report.duplicates} duplicates, {len(report.skipped)} skipped"
        + (f" ({report.cache_hits} extractions reused from the cache)" if report.cache_hits else "")
    )
    for reason, count in report.skip_reasons.most_common():
        console.print(f"  [yellow]skipped[/] {count} x {escape(reason)}", highlight=False)
    for issue in report.skipped[:10]:
        console.print(f"    {escape(str(issue))}", highlight=False)
    for note in report.files[:10]:
        console.print(f"  [yellow]{note.outcome}[/] {escape(note.path)}: {escape(note.reason)}", highlight=False)
    if len(report.files) > 10:
        console.print(f"  ... and {len(report.files) - 10} more files (manifest.jsonl lists them all)")
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

