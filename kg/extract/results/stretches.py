"""The part of its sentence each value's fields are looked for in, bounded by the values around it."""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span

from kg.extract.results.candidates import Candidate, _tokens


@dataclass
class _Stretch:
    """A value's part of its sentence: tokens ``left``..value..``right`` (bounded by the values
    around it, ``right`` reaching past values coordinated with it: ``44.9 AP and 46.5 AP in X``)."""

    value: Span
    left: int
    right: int
    reach: int


def _stretches(doc: Doc, sent: Span, kept: list[Candidate]) -> list[_Stretch | None]:
    spans = [_tokens(doc, c.start, c.end) for c in kept]
    out: list[_Stretch | None] = []
    for i, value in enumerate(spans):
        if value is None:
            out.append(None)
            continue
        left = next((s.end for s in reversed(spans[:i]) if s is not None), sent.start)
        right = next((s.start for s in spans[i + 1:] if s is not None), sent.end)
        out.append(_Stretch(value, left, right, right))
    for i in range(len(out) - 2, -1, -1):  # coordinated values share what follows the last of them
        this, after = out[i], out[i + 1]
        if this is not None and after is not None and _coordinated(doc[this.value.end:after.value.start]):
            this.reach = after.reach
    return out


def _coordinated(gap: Span) -> bool:
    """Only conjunctions, punctuation, units and metric words between two values."""
    return all(t.lower_ in ("and", ",", "/", "or", "%", "(", ")", "respectively", "as", "well") or
               t.pos_ in ("NOUN", "PROPN", "NUM", "SYM") for t in gap) and len(gap) <= 6
