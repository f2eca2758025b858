"""The progress bar of the extraction, with a total counted cheaply from the input files."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def estimate_records(files, fmt: str | None = None) -> int | None:
    """About how many records ``files`` hold, counted cheaply: non-blank lines of JSON Lines,
    rows of CSV (lines but the header), paragraphs of text lists, ``@`` entries of BibTeX;
    None when a file's count is not cheap to get (a JSON array)."""
    from kg.ingest import detect_format

    total = 0
    for entry in files:
        if getattr(entry, "ignored", None) is not None:
            continue
        path = getattr(entry, "path", entry)
        kind = fmt or detect_format(path)
        if kind == "json":
            return None
        try:
            with open(path, "rb") as handle:
                lines = [line.strip() for line in handle]
        except OSError:
            continue
        if kind == "jsonl":
            total += sum(1 for line in lines if line)
        elif kind == "csv":
            total += max(sum(1 for line in lines if line) - 1, 0)
        elif kind == "bibtex":
            total += sum(1 for line in lines if line.startswith(b"@"))
        else:  # a header line, then paragraphs
            starts = sum(1 for before, line in zip([b"", *lines], lines) if line and not before)
            total += max(starts - 1, 1)
    return total


def _progress(items: Iterable, enabled: bool, label: str, total: int | None = None) -> Iterator:
    """A progress bar on stderr; with ``total``, a bar, a count of it and the time left."""
    if not enabled:
        yield from items
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TimeElapsedColumn, TimeRemainingColumn,
    )

    columns = [SpinnerColumn(), "[progress.description]{task.description}", BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn()]
    if total:
        columns.append(TimeRemainingColumn())
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(label, total=total or None)
        for item in items:
            yield item
            bar.advance(task)
