"""Where a result was measured: the Dataset or Task of the value's stretch, an entity that follows
another value being that value's."""

from __future__ import annotations

from spacy.tokens import Span

from kg.extract.results.stretches import _Stretch


def _after(ents: list[Span], label: str, stretch: _Stretch) -> Span | None:
    """The first entity of ``label`` after the value, as far as its reach."""
    return next((e for e in ents if e.label_ == label and stretch.value.end <= e.start and e.end <= stretch.reach),
                None)


def _claimed(ents: list[Span], label: str, stretches: list) -> set[tuple[int, int]]:
    """Entities that follow a value not coordinated with the next one: that value's own."""
    found = set()
    for stretch in stretches:
        if stretch is not None and stretch.reach == stretch.right:
            after = _after(ents, label, stretch)
            if after is not None:
                found.add((after.start, after.end))
    return found


def _in_stretch(ents: list[Span], label: str, stretch: _Stretch, claimed: set) -> Span | None:
    """The entity of ``label`` in the value's stretch: after it (as far as its reach), else before it,
    else the sentence's only one; an entity that follows another value is that value's when this
    one names its own place (``1.8% in X and 8% in Y``; but ``45% on X, surpassing Z by 3%``: X)."""
    after = _after(ents, label, stretch)
    if after is not None:
        return after
    of_label = [e for e in ents if e.label_ == label]
    doc = stretch.value.doc
    own_place = False  # ``8% in power system expansion``: a place no entity of another type accounts for
    for t in doc[stretch.value.end:min(len(doc), stretch.value.end + 3)]:
        if t.pos_ in ("VERB", "AUX", "CCONJ", "PUNCT"):
            break  # ``by 20% and performing on par with``: a place of another clause
        if t.lower_ in ("on", "in", "for", "across"):
            j = t.i + 1
            while j < len(doc) and doc[j].pos_ == "DET":
                j += 1
            own_place = not any(e.start == j and e.label_ != label for e in ents) and (j >= len(doc) or doc[j].lower_ != "par")
            break
    free = [e for e in of_label if not own_place or (e.start, e.end) not in claimed]
    before = [e for e in free if stretch.left <= e.start and e.end <= stretch.value.start]
    if before:
        return before[-1]
    if len({e.text.lower() for e in of_label}) == 1 and free:
        return free[0]
    return None
