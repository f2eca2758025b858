"""CSV and TSV tables of papers with a header row (spreadsheet exports, scraped listings).

Columns use the same names as JSON records (see :mod:`kg.ingest.fields`). The
delimiter is whichever of tab, comma or semicolon the header uses most, so a
``.csv`` saved with tabs still reads. Rows stream; a row whose field count does
not match the header is reported, not guessed at, since its columns are shifted.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from kg.ingest.fields import paper_from_record
from kg.ingest.textio import guarded, iter_lines
from kg.types import Paper, ReadIssue, Source

__all__ = ["read_csv", "sniff_delimiter"]

_DELIMITERS = ("\t", ",", ";")


def sniff_delimiter(header: str) -> str:
    """The delimiter a header line uses: the most frequent of tab, comma, semicolon (tab on ties).

    >>> sniff_delimiter("title\\tabstract, with comma")
    '\\t'
    >>> sniff_delimiter("title,abstract,year")
    ','
    """
    counts = [(header.count(d), -rank, d) for rank, d in enumerate(_DELIMITERS)]
    count, _, delimiter = max(counts)
    return delimiter if count else ","


def _peek_header(lines: Iterator[str]) -> tuple[list[str], str]:
    peeked: list[str] = []
    for line in lines:
        peeked.append(line)
        if line.strip():
            return peeked, line
    return peeked, ""


def _chain(head: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from head
    yield from rest


@guarded
def read_csv(path: Path) -> Iterator[Paper | ReadIssue]:
    """One paper per data row (``Source.index``: row number, ``Source.line``: its first line)."""
    name = str(path)
    lines = iter_lines(path)
    peeked, header_line = _peek_header(lines)
    reader = csv.reader(_chain(peeked, lines), delimiter=sniff_delimiter(header_line), strict=True)
    header: list[str] | None = None
    index = 0
    previous = 0
    while True:
        start = previous + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            if reader.line_num == previous:
                break
            previous = reader.line_num
            yield ReadIssue(Source(name, index, start), f"malformed CSV: {error}")
            index += 1
            continue
        previous = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [cell.strip() for cell in row]
            continue
        source = Source(name, index, start)
        index += 1
        extra = row[len(header) :]
        if len(row) < len(header) or any(cell.strip() for cell in extra):
            yield ReadIssue(source, f"row has {len(row)} fields but the header has {len(header)}")
            continue
        record: dict[str, str] = {}
        for key, cell in zip(header, row, strict=False):
            record.setdefault(key, cell)
        yield paper_from_record(record, source)
