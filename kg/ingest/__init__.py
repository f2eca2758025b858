"""Readers that turn input files into :class:`~kg.types.Paper` records (the first stage of a build).

:func:`read_papers` takes files, directories and glob patterns in any supported
format and streams papers, with a :class:`~kg.types.ReadIssue` in place of each
record it could not read, so nothing is dropped silently. Abstracts are stored
exactly as in the input: later stages keep character offsets into them.

Formats: abstract lists (``.txt``/``.md``, a header line naming venue and year,
then one abstract per paragraph), JSON Lines, JSON, CSV/TSV and BibTeX; the field
names each accepts are in ``docs/inputs.md``.
"""

from __future__ import annotations

from kg.ingest.bibtex import read_bibtex
from kg.ingest.csv import read_csv
from kg.ingest.fields import paper_from_record
from kg.ingest.jsonrecords import read_json, read_json_lines
from kg.ingest.read import (
    EXTENSIONS,
    FORMATS,
    InputError,
    InputFile,
    content_format,
    detect_format,
    expand_inputs,
    read_file,
    read_papers,
    scan_inputs,
)
from kg.ingest.textlist import parse_list_header, read_text_list

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "InputError",
    "InputFile",
    "content_format",
    "detect_format",
    "expand_inputs",
    "paper_from_record",
    "parse_list_header",
    "read_bibtex",
    "read_csv",
    "read_file",
    "read_json",
    "read_json_lines",
    "read_papers",
    "read_text_list",
    "scan_inputs",
]
