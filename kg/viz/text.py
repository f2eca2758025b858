"""Abstracts as a reader should see them: LaTeX and Markdown residue gone, spans still exact.

The graph keeps every abstract as stored and every offset points into that
text (``98\\%``, ``20$\\times$``, ``**M**otif``). Pages show the clean text of
:func:`kg.extract.clean.clean_text` instead, so each span is moved onto it: a
clean character belongs to a raw span when the markup it came from lies inside
that span.

Examples
--------
>>> text = readable(r"APE keeps 98\\% of the score, a 4.5$\\times$ speedup.")
>>> text.text
'APE keeps 98% of the score, a 4.5× speedup.'
>>> raw = r"APE keeps 98\\% of the score, a 4.5$\\times$ speedup."
>>> start, end = raw.index("98"), raw.index(" of")
>>> s, e = text.span(start, end)
>>> text.text[s:e]
'98%'
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from kg.extract.clean import clean_text

__all__ = ["ReadableText", "readable"]

#: Every piece of markup clean_text removes starts with one of these (a cheap test first).
_MARKUP = re.compile(r"[\\$*_`~{}]|''")


@dataclass(frozen=True)
class ReadableText:
    """Clean ``text`` and, per clean character, the raw span it came from (None: text is the raw)."""

    text: str
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The clean span of the raw span ``[start, end)``: the clean characters made inside it."""
        if self.starts is None or self.ends is None:
            return start, end
        clean_start = bisect_left(self.starts, start)
        clean_end = bisect_right(self.ends, end)
        return clean_start, max(clean_start, clean_end)


def readable(raw: str) -> ReadableText:
    """``raw`` without markup (see :mod:`kg.extract.clean`), with a map for its spans."""
    raw = raw or ""
    if not _MARKUP.search(raw) and not raw.lstrip()[:8].lower().startswith(("abstract", "summary")):
        return ReadableText(raw)
    clean = clean_text(raw)
    return ReadableText(clean.text, tuple(clean.starts), tuple(clean.ends))
