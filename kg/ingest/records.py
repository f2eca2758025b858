"""Papers from Python objects instead of files: dicts, abstract strings, or a table.

The Python API (:mod:`kg.api`) reads its in-memory inputs here; each record goes through
:func:`~kg.ingest.fields.paper_from_record`, the same field rules as the file readers
(``docs/inputs.md``), so a dict gives the paper its JSON Lines line would.

>>> [p.title for p in read_records([{"title": "Zorbnet", "abstract": "We propose Zorbnet."}])]
['Zorbnet']
>>> [p.abstract for p in read_records(["We propose Zorbnet."])]
['We propose Zorbnet.']
>>> next(read_records([{"title": "no abstract"}])).reason.split(" (")[0]
'no abstract'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from kg.ingest.fields import paper_from_record
from kg.types import Paper, ReadIssue, Source

__all__ = ["RECORDS_SOURCE", "read_records", "table_records"]

#: The ``source.path`` of papers given as Python objects (files give their path).
RECORDS_SOURCE = "<records>"


def table_records(table: Any) -> list[dict]:
    """The rows of a table with ``to_dict("records")`` (a pandas DataFrame; pandas is not
    needed here), with missing cells (None, NaN, pandas' NA and NaT) left out, as a CSV
    reader leaves out empty cells."""
    return [{key: value for key, value in row.items() if not _missing(value)}
            for row in table.to_dict("records")]


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ in ("NAType", "NaTType")


def read_records(records: Iterable[Mapping[str, Any] | str], source: str = RECORDS_SOURCE
                 ) -> Iterator[Paper | ReadIssue]:
    """A paper (or the issue that stops one) per record: a mapping of fields, or a string
    that is the abstract. ``source.index`` is the record's position."""
    for index, record in enumerate(records):
        where = Source(source, index)
        if isinstance(record, str):
            yield paper_from_record({"abstract": record}, where)
        elif isinstance(record, Mapping):
            yield paper_from_record(record, where)
        else:
            yield ReadIssue(where, f"expected a dict or a string, got {type(record).__name__}")
