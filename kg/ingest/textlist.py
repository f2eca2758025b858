"""The abstract-list text format: a header line naming the list, then one abstract per paragraph.

This is how abstracts are pasted from proceedings pages (see the seed files)::

    ICLR 2025 Papers

    First abstract ...

    Second abstract, which may
    span several lines ...

The header gives every paper its venue and year, in whatever language it is
written. Paragraphs are kept exactly as stored, internal newlines included,
because downstream offsets point into them; only the line ending after a
paragraph's last line is dropped. The file streams line by line.

Examples
--------
>>> parse_list_header("ICLR 2025 论文列表")
('ICLR', 2025)
>>> parse_list_header("Proceedings of ACL 2023")
('ACL', 2023)
>>> parse_list_header("ACM SIGIR 2024 accepted papers")
('ACM SIGIR', 2024)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

from kg.ids import paper_id
from kg.ingest.fields import text_problem
from kg.ingest.textio import guarded, iter_lines
from kg.types import Paper, ReadIssue, Source

__all__ = ["MAX_HEADER_CHARS", "parse_list_header", "read_text_list"]

#: A first line longer than this is an abstract, not a header naming the list.
MAX_HEADER_CHARS = 200

_YEAR = re.compile(r"(?<![0-9])((?:19|20)[0-9]{2})(?![0-9])")
# Latin words, allowing inner digits, hyphens, dots and ampersands (ACL-IJCNLP, AT&T, Interspeech).
_WORD = re.compile(r"[A-Za-z\u00C0-\u024F](?:[A-Za-z0-9\u00C0-\u024F&]|[-.'](?=[A-Za-z0-9]))*")
# Words that describe a list rather than name a venue (English and a few other languages).
_NOT_VENUE = frozenset(
    """
    a an the of in on at for and or to from with by all
    list lists paper papers article articles abstract abstracts proceedings proceeding
    accepted accept acceptance selected submitted submission submissions
    main track tracks conference conf annual meeting international edition volume vol part
    findings oral orals poster posters spotlight spotlights highlight highlights
    long short full session sessions camera ready best award awards workshop workshops notes
    liste lista elenco papiers beiträge artikel arbeiten artículos trabajos documentos
    aceptados accettati angenommene akzeptierte acceptés der die das des les la le el los las
    del de di und et y e von zu
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def _is_acronym(word: str) -> bool:
    """ICLR, NeurIPS, arXiv, ACL-IJCNLP: several capitals, or a capital after the first letter."""
    letters = [c for c in word if c.isalpha()]
    capitals = sum(c.isupper() for c in letters)
    return capitals >= 2 or any(c.isupper() for c in letters[1:])


def _candidates(line: str) -> list[tuple[int, int, str, bool]]:
    """Runs of venue-like words, as (start, end, text, is_acronym_run)."""
    runs: list[tuple[int, int, str, bool]] = []
    current: list[re.Match[str]] = []

    def close() -> None:
        if current:
            start, end = current[0].start(), current[-1].end()
            acronym = any(_is_acronym(m.group()) for m in current)
            runs.append((start, end, line[start:end], acronym))
            current.clear()

    for match in _WORD.finditer(line):
        word = match.group()
        venue_like = word.lower() not in _NOT_VENUE and (word[0].isupper() or _is_acronym(word))
        if venue_like and (not current or line[current[-1].end() : match.start()].isspace()):
            current.append(match)
            continue
        close()
        if venue_like:
            current.append(match)
    close()
    return runs


def parse_list_header(line: str) -> tuple[str | None, int | None]:
    """Venue and year named by a list header such as ``NeurIPS 2024 accepted papers``.

    The year is the first 19xx/20xx number; the venue is the run of acronym-like
    (failing that, capitalised) Latin words nearest to it, before it on a tie.
    Generic words (Papers, Proceedings, accepted ...) and non-Latin text are never venue.
    """
    line = _YEAR.sub(r" \1 ", line)  # "ICLR2025" -> "ICLR 2025": the year is never venue
    year_match = _YEAR.search(line)
    year = int(year_match.group(1)) if year_match else None
    runs = _candidates(line)
    if not runs:
        return None, year
    acronyms = [run for run in runs if run[3]]
    pool = acronyms or runs
    if year_match is None:
        return pool[0][2], year
    anchor_start, anchor_end = year_match.span()

    def distance(run: tuple[int, int, str, bool]) -> tuple[int, int]:
        start, end = run[0], run[1]
        after = start >= anchor_end
        gap = start - anchor_end if after else max(anchor_start - end, 0)
        return gap, int(after)

    return min(pool, key=distance)[2], year


def _is_blank(line: str) -> bool:
    return not line.strip()


def _strip_line_end(text: str) -> str:
    if text.endswith("\n"):
        text = text[:-1]
        text = text.removesuffix("\r")
    return text


def _header(numbered: Iterator[tuple[int, str]]) -> tuple[str | None, list[tuple[int, str]]]:
    """The header line, if the file has one, and the lines read past it that belong to the body.

    The first non-blank line is the header when it is short and is followed by a
    blank line (or the end), or names a year; otherwise it starts the first abstract,
    so a hard-wrapped abstract in a file without a header loses nothing.
    """
    for number, line in numbered:
        if _is_blank(line):
            continue
        text = line.strip()
        if len(text) > MAX_HEADER_CHARS:
            return None, [(number, line)]
        following = next(numbered, None)
        rest = [following] if following else []
        if following is None or _is_blank(following[1]) or _YEAR.search(text):
            return text, rest
        return None, [(number, line), *rest]
    return None, []


@guarded
def read_text_list(path: Path) -> Iterator[Paper | ReadIssue]:
    """Papers of an abstract-list file; the header's venue and year apply to each.

    ``Source.index`` is the paragraph's 0-based number after the header and
    ``Source.line`` the 1-based line it starts on.
    """
    name = str(path)
    numbered = enumerate(iter_lines(path), start=1)
    header, body = _header(numbered)
    venue, year = parse_list_header(header) if header else (None, None)
    paragraph: list[str] = []
    start = 0
    index = 0

    def emit() -> Paper | ReadIssue:
        abstract = _strip_line_end("".join(paragraph))
        paragraph.clear()
        if problem := text_problem(abstract=abstract):
            return ReadIssue(Source(name, index, start), problem)
        return Paper(
            id=paper_id(abstract=abstract),
            abstract=abstract,
            source=Source(name, index, start),
            venue=venue,
            year=year,
        )

    for number, line in itertools.chain(body, numbered):
        if _is_blank(line):
            if paragraph:
                yield emit()
                index += 1
            continue
        if not paragraph:
            start = number
        paragraph.append(line)
    if paragraph:
        yield emit()
        index += 1
    if index == 0:
        yield ReadIssue(Source(name, 0, None), "no abstracts after the header line")
