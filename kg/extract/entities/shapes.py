"""What a name looks like: its shape, a model size after it."""

from __future__ import annotations

import re

from kg.extract.vocabulary import Vocabulary

SIZE = re.compile(r"^\d+(?:\.\d+)?[BMKT]$|^\d+x\d+(?:\.\d+)?[BM]$", re.IGNORECASE)
_CITATION_KEY = re.compile(r"^[a-z_]+(?:19|20)\d\d[a-z_]*$")  # he2016deep, from LaTeX sources
_NAME_SHAPE = re.compile(r"[A-Z].*[A-Z]|[a-z][A-Z]|[A-Za-z]\d|^[A-Z][a-z]+-?\d")
_YEAR = re.compile(r"^(?:19|20)\d\d[a-h]?$")  # 2021a: a second citation of one year


def is_year(text: str) -> bool:
    """A year as citations write it: ``2016``, ``2021a``.

    >>> is_year("2016"), is_year("2021a"), is_year("31.5"), is_year("2048x")
    (True, True, False, False)
    """
    return bool(_YEAR.match(text))


def is_name_like(text: str, vocabulary: Vocabulary) -> bool:
    """A name by its shape: several capitals, an inner capital, or letters joined to digits."""
    if text in vocabulary.not_names or text.rstrip("s") in vocabulary.not_names:
        return False
    if not text[:1].isalpha() or sum(c.isalpha() for c in text) < 2:
        return False
    if text.lower().startswith("non-") or "://" in text or _CITATION_KEY.match(text):
        return False
    return bool(_NAME_SHAPE.search(text))
