"""Which way is better for a result: from its metric's words, else from the change the text states."""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from kg.extract.results.words import _APPROX_WORDS, _CHANGE_NOUNS, _DOWN, _HIGHER_BETTER, _LOWER_BETTER, _UP

#: Words that say nothing of the direction: the word before them does (``FID score``, ``error rate``).
_UNINFORMATIVE = frozenset("score scores rate rates value values metric metrics".split())
#: Verbs that state a change by the value that follows them (``saving 40%``, ``sacrificing 1%``).
_DOWN_VERBS = ("reduc", "decreas", "lower", "cut", "sav", "sacrific", "drop", "los", "shrink")
_CHANGE_VERBS = ("improv", "increas", "boost", "rais", "enhanc", "accelerat", "speed", "gain", *_DOWN_VERBS)


def _change(doc: Doc, sent: Span, value: Span, left: int) -> str | None:
    """``up`` / ``down`` when the value is stated as a change (``a 5% gain``, ``3x faster``, ``+3.4``,
    ``saving 40%``, ``improves X by 5%``), else None."""
    if value.text.lstrip("~<>≈ ").startswith("+"):
        return "up"
    for token in doc[value.end:min(sent.end, value.end + 2)]:  # ``5% gain``, ``3x faster``, ``12% lower``
        word = token.lower_
        if word in _DOWN or word.startswith(("reduc", "decreas", "drop", "saving")):
            return "down"
        if word in _UP or _CHANGE_NOUNS.match(word):
            return "up"
        if word not in ("%", "points", "point", "relative", "absolute", "average", "overall"):
            break
    i = value.start - 1
    while i >= left and doc[i].lower_ in _APPROX_WORDS | {"a", "an", "the", "average", "of", "less", "more", "than"}:
        i -= 1
    if i >= left and doc[i].pos_ == "VERB" and doc[i].lower_.startswith(_CHANGE_VERBS):  # ``saving 40%``
        return "down" if doc[i].lower_.startswith(_DOWN_VERBS) else "up"
    if i >= left and doc[i].lower_ == "by":  # ``improves the top-1 accuracy of X by 1.4%``
        for token in reversed(doc[max(left, i - 15):i]):
            if token.lower_ in _DOWN or token.lower_.startswith(("reduc", "decreas", "sav")):
                return "down"
            if token.lower_ in _UP:
                return "up"
    return None


def _direction(metric: str | None, change: str | None) -> str | None:
    """Which way is better: from the metric's words where they say (error: lower), else from the
    change the text states (improves: higher, reduces: lower)."""
    if metric:
        words = [w for w in re.split(r"[\s/]+", metric.lower()) if w and w not in _UNINFORMATIVE]
        for word in reversed(words):  # the head decides: error rate, FID score: lower; success rate: higher
            if word in _LOWER_BETTER:
                return "lower"
            if word in _HIGHER_BETTER:
                return "higher"
    if change == "up":
        return "higher"
    if change == "down":
        return "lower"
    return None
