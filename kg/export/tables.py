"""Tables meant for spreadsheets (``results.csv``, ``kg map``'s tables, ``kg leaderboard --format csv``).

Every cell goes through :func:`spreadsheet_cell`, which neutralises cells that a spreadsheet
would run as a formula (``=HYPERLINK(...)`` as a venue); :func:`write_csv` writes the table
atomically (:func:`kg.builddir.atomic_open`).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path

from kg.builddir import atomic_open

__all__ = ["spreadsheet_cell", "write_csv"]

#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV injection"): = + - @,
#: and tab or carriage return before them.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value):
    """A CSV cell that a spreadsheet shows as the text it is: a string starting with
    ``= + - @`` (or tab, carriage return) gets a leading apostrophe. Numbers stay numbers.

    >>> print(spreadsheet_cell('=HYPERLINK("http://x", "y")'))
    '=HYPERLINK("http://x", "y")
    >>> spreadsheet_cell("-5%"), spreadsheet_cell(-5), spreadsheet_cell("GPT-4o")
    ("'-5%", -5, 'GPT-4o')
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def write_csv(path: str | Path, header: Sequence, rows: Iterable[Sequence]) -> Path:
    """Write a table for spreadsheets (atomically), every cell through :func:`spreadsheet_cell`."""
    with atomic_open(path) as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([spreadsheet_cell(cell) for cell in header])
        writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return Path(path)
