"""BibTeX files (exports of Zotero, DBLP, ACL Anthology, Google Scholar) read with bibtexparser 2.

Entries carry the abstract in an ``abstract`` field; the rest maps onto the
record fields of :mod:`kg.ingest.fields` (``booktitle``/``journal`` -> venue,
``eprint`` -> arXiv id). Titles lose their case-protecting braces; the abstract
is kept exactly as bibtexparser returns it (outer delimiters removed), LaTeX and
all. BibTeX has no line-oriented structure to stream on, so the file is parsed
whole; blocks bibtexparser could not parse come back as issues with their line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.model import Block, DuplicateBlockKeyBlock, Entry, ParsingFailedBlock

from kg.ingest.fields import paper_from_record
from kg.ingest.textio import guarded, read_text
from kg.types import Paper, ReadIssue, Source

__all__ = ["read_bibtex", "split_bibtex_authors", "strip_braces"]

_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_SPACE = re.compile(r"\s+")


def strip_braces(text: str) -> str:
    """Drop case-protecting braces and collapse whitespace.

    >>> strip_braces("{BERT}: Pre-training of {D}eep\\n  Transformers")
    'BERT: Pre-training of Deep Transformers'
    """
    return _SPACE.sub(" ", text.replace("{", "").replace("}", "")).strip()


def _split_top_level_and(text: str) -> list[str]:
    """Split on ``and`` outside braces: ``{Barnes and Noble}`` is one (corporate) author."""
    parts: list[str] = []
    depth = 0
    start = 0
    masked = []
    for char in text:
        depth += char == "{"
        masked.append(char if depth == 0 else "x")
        depth -= char == "}" and depth > 0
    for match in _AND.finditer("".join(masked)):
        parts.append(text[start : match.start()])
        start = match.end()
    parts.append(text[start:])
    return parts


def split_bibtex_authors(text: str) -> tuple[str, ...]:
    """Split on ``and`` outside braces; ``Last, First`` -> ``First Last``; ``others`` is dropped.

    >>> split_bibtex_authors("Devlin, Jacob and Ming-Wei Chang and {Barnes and Noble} and others")
    ('Jacob Devlin', 'Ming-Wei Chang', 'Barnes and Noble')
    """
    names: list[str] = []
    for raw in _split_top_level_and(text):
        part = strip_braces(raw)
        if not part or part.lower() == "others":
            continue
        if part.count(",") == 1:
            last, first = (piece.strip() for piece in part.split(","))
            part = f"{first} {last}".strip()
        names.append(part)
    return tuple(names)


def _record(entry: Entry) -> dict[str, Any]:
    fields: dict[str, Any] = {field.key.lower(): field.value for field in entry.fields}
    record: dict[str, Any] = {}
    for key, value in fields.items():
        if not isinstance(value, str):
            continue
        if key == "abstract":
            record[key] = value
        elif key == "author":
            record["authors"] = list(split_bibtex_authors(value))
        elif key == "eprint":
            prefix = fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv"
            if isinstance(prefix, str) and "arxiv" in prefix.lower():
                record["eprint"] = value
        else:
            record[key] = strip_braces(value)
    return record


@guarded
def read_bibtex(path: Path) -> Iterator[Paper | ReadIssue]:
    """One paper per entry, in file order; ``Source.index`` counts entries and failed blocks."""
    name = str(path)
    library = bibtexparser.parse_string(read_text(path))
    index = 0
    for block in library.blocks:
        line = block.start_line + 1 if block.start_line is not None else None
        if isinstance(block, DuplicateBlockKeyBlock):
            # A reused citation key is a bookkeeping slip, not a broken record: keep the paper.
            block = _reparse(block, library)
        if isinstance(block, ParsingFailedBlock):
            yield ReadIssue(Source(name, index, line), f"unparsable BibTeX: {_reason(block)}")
        elif isinstance(block, Entry):
            result = paper_from_record(_record(block), Source(name, index, line))
            if isinstance(result, ReadIssue):
                result = ReadIssue(result.source, f"entry {block.key!r}: {result.reason}")
            yield result
        else:
            continue
        index += 1


def _reparse(block: DuplicateBlockKeyBlock, library: Library) -> Block:
    """The entry behind a duplicate-key block, run through the parse stack like the others."""
    scratch = Library()
    scratch.add(list(library.strings))
    reparsed = bibtexparser.parse_string(block.raw or "", library=scratch).entries
    return reparsed[0] if len(reparsed) == 1 else block


def _reason(block: ParsingFailedBlock) -> str:
    error = block.error
    message = getattr(error, "abort_reason", None) or str(error).strip() or type(error).__name__
    return _SPACE.sub(" ", message)[:200]
