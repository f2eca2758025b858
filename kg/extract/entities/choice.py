"""Which candidates stand: generic classes dropped, whole emphasised names favoured, then no two
overlapping (stronger first, then longer)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from spacy.tokens import Doc

from kg.extract.entities.candidate import PRIORITY_CATALOGUE, PRIORITY_DEFINED, PRIORITY_NAME, Candidate


class CandidateChoice:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``vocab``."""

    def _generic(self, doc: Doc, candidate: Candidate) -> bool:
        """A generic class (``language model``, ``deep neural network``) is not an entity, unless
        the text gives it an acronym (``large language models (LLMs)``): then it names a family."""
        if candidate.priority >= PRIORITY_DEFINED:
            return False
        text = doc[candidate.start:candidate.end].text
        return self.vocab.is_generic_phrase(text) and not self.vocab.is_family(text)

    @staticmethod
    def _non_overlapping(doc: Doc, candidates: list[Candidate]) -> list[Candidate]:
        """The likelier whole name first when the learned choice scored them
        (:mod:`~kg.extract.entities.ranking`), else the stronger; then the longer."""
        taken: set[int] = set()
        chosen: list[Candidate] = []
        for c in sorted(candidates, key=_choice_order):
            if c.end <= c.start or any(i in taken for i in range(c.start, c.end)):
                continue
            taken.update(range(c.start, c.end))
            chosen.append(c)
        return sorted(chosen, key=lambda c: c.start)


def _choice_order(c: Candidate) -> tuple:
    return (-(c.score if c.score is not None else 0.0), -c.priority, -(c.end - c.start), c.start)


def strengthen_around_catalogue(doc: Doc, candidates: list[Candidate]) -> None:
    """A typed phrase around a catalogue match of its own type, and of no other type, counts
    as a catalogue match (not ``LAMBADA natural language understanding`` over the dataset), unless
    the rules read another name in it (``GPT-q3 with Zorbo-v2``: two names, not one phrase)."""
    catalogued = sorted((c for c in candidates if c.priority == PRIORITY_CATALOGUE), key=lambda c: c.start)
    named = sorted((c for c in candidates if PRIORITY_NAME <= c.priority < PRIORITY_CATALOGUE),
                   key=lambda c: c.start)
    starts, named_starts = [c.start for c in catalogued], [c.start for c in named]
    for phrase in candidates:
        if phrase.priority >= PRIORITY_CATALOGUE or not phrase.label:
            continue
        # only the candidates starting inside the phrase: a long text stays linear
        first, last = bisect_left(starts, phrase.start), bisect_right(starts, phrase.end)
        inside = [c for c in catalogued[first:last] if phrase.start <= c.start and c.end <= phrase.end]
        if not _of_its_type(inside, phrase) and not _named_around(doc, inside, phrase):
            continue
        first, last = bisect_left(named_starts, phrase.start), bisect_right(named_starts, phrase.end)
        others = [c for c in named[first:last] if c.end <= phrase.end and (c.start, c.end) != (phrase.start, phrase.end)
                  and not any(m.start <= c.start and c.end <= m.end for m in inside)]
        if not others and any(_stands_for_phrase(doc, c, phrase) for c in inside):
            phrase.priority = PRIORITY_CATALOGUE


def _of_its_type(inside: list[Candidate], phrase: Candidate) -> bool:
    """Every catalogue match inside the phrase can be of the phrase's type: ``VGG-Sound Source``
    around ``VGG-Sound``, which the catalogue lists as a dataset and as a model; not ``LAMBADA
    natural language understanding``, a task around a dataset."""
    types: dict[tuple[int, int], set[str | None]] = {}
    for c in inside:
        types.setdefault((c.start, c.end), set()).add(c.label)
    return all(phrase.label in labels for labels in types.values())


def _named_around(doc: Doc, inside: list[Candidate], phrase: Candidate) -> bool:
    """``Spiking PointNet``, ``Graph BERT``: capitalised words around a catalogued model make a
    name of its own, a method or a model whichever type each was read as."""
    actors = ("Method", "Model")
    words = [t for t in doc[phrase.start:phrase.end] if t.is_alpha and not t.is_stop]
    return phrase.label in actors and all(c.label in actors for c in inside) \
        and all(t.text[:1].isupper() for t in words)


#: Words that join two things, not the parts of one name: ``Zorblat on Natural Questions``.
_JOINING = frozenset("on in for with from by to of at over across using via and or than".split())


def _stands_for_phrase(doc: Doc, match: Candidate, phrase: Candidate) -> bool:
    """A shorter catalogue match of the phrase's type inside it makes it strong, but not a dataset
    or model name followed by common words (``HumanEval coding`` benchmark), nor one a
    preposition or conjunction joins to the words before it (``Zorblat on Natural Questions``)."""
    if (match.start, match.end) == (phrase.start, phrase.end):
        return False
    if any(t.lower_ in _JOINING and t.is_lower and t.whitespace_ and doc[t.i - 1].whitespace_
           for t in doc[phrase.start + 1:match.start]):
        return False  # a word between spaces; ``text-to-image retrieval`` is one name
    return not (match.label in ("Dataset", "Model") and match.start == phrase.start
                and all(t.is_lower and t.is_alpha for t in doc[match.end:phrase.end]))  # not ``ImageNet 64x64``


def _label_as_learned(candidates: list[Candidate], learned: list[Candidate]) -> None:
    """An untyped candidate takes the type the recogniser gives the same extent."""
    by_extent = {(c.start, c.end): c.label for c in learned}
    for c in candidates:
        if c.label is None and (c.start, c.end) in by_extent:
            c.label = by_extent[(c.start, c.end)]


def _favour_whole_names(doc: Doc, candidates: list[Candidate], learned: list[Candidate]) -> None:
    """The authors set the whole name in italics (_filter SBI_), or introduce it whole (``we
    introduce KL-masking``, ``Tandem transformers``): it wins over a shorter name inside."""
    whole = ("emphasis", "introduced")
    inner = [c for c in [*candidates, *learned] if c.source not in whole and c.priority < PRIORITY_DEFINED]
    for c in (c for c in candidates if c.source in whole):
        inside = [i for i in inner if c.start <= i.start and i.end <= c.end and i.end - i.start < c.end - c.start]
        if c.source == "introduced" and any(i.priority >= PRIORITY_NAME and _described(doc, i, c) for i in inside):
            continue
        if inside:
            c.priority = PRIORITY_NAME + 0.5


def _described(doc: Doc, name: Candidate, phrase: Candidate) -> bool:
    """The name stands by itself and the other words of the phrase describe it: ``a neural
    LSEnet``, ``the AtSpeed-S optimization objective``; not ``KL-masking`` (glued) or
    ``Tandem transformers`` (a plain word that needs its head)."""
    if name.end == phrase.end:
        # ``Spiking PointNet``: capitalised words before a name name it with it, unless the one
        # word is capitalised because it opens the sentence
        before = doc[phrase.start:name.start]
        capitalised = all(t.is_alpha and t.text[:1].isupper() for t in before)
        return not capitalised or (len(before) == 1 and bool(before[0].is_sent_start))
    words = doc[name.start:name.end]
    plain = len(words) == 1 and words[0].is_title and words[0].is_alpha
    return bool(doc[name.end - 1].whitespace_) and not plain
