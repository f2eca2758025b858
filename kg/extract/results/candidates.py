"""Step 1: the numbers of a sentence that may state a result, by their shape and what is next to
them; a number inside a name (``GPT-4``) is none."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.tokens import Doc, Span

from kg.extract.results.phrases import _past_short_form
from kg.extract.results.values import VALUE
from kg.extract.results.words import _LISTING, _METRIC_GLUE, _SCORE_VERBS


@dataclass(frozen=True)
class Candidate:
    """A number that may state a result: its char span in the doc and its shape."""

    start: int
    end: int
    text: str
    kind: str  # from, arrow, paren, range, factor, magnitude, signed, unit, bare


_VALUE_METRIC_GLUE = frozenset("in of % points point higher lower better absolute relative improvement gain "
                               "increase average mean".split())


def result_candidates(doc: Doc, sent: Span, entities: list[Span]) -> list[Candidate]:
    """The numbers of one sentence that may state a result (shape only; step 1 of the module)."""
    text, offset = sent.text, sent.start_char
    metrics = [e for e in entities if e.label_ == "Metric"]
    found: list[Candidate] = []
    unbound: list[Candidate] = []  # bare numbers nothing marks as scores (yet)
    for start, end, written, kind in _numbers(text, offset):
        if any(e.start_char <= start < e.end_char or (e.start_char < end <= e.end_char and e.label_ != "Metric")
               for e in entities):
            continue  # a number inside a name (GPT-4, ResNet-50, 8x7B); not a unit read as a metric (32.03 dB)
        candidate = Candidate(start, end, written, kind)
        if kind == "bare" and not (_next_to_metric(doc, start, end, metrics) or _after_score_verb(doc, start, end)
                                   or _listed_after(doc, start, found) or _on_dataset(doc, start, end, entities)):
            unbound.append(candidate)
            continue
        found.append(candidate)
    for candidate in reversed(unbound):  # ``3.08 or 2.52 FID``: listed before a score
        if _listed_before(doc, candidate, found):
            found.append(candidate)
    return sorted(found, key=lambda c: c.start)


#: Decimals joined by slashes, one per metric or setting (``an EM/F1 of 80.1/88.3``, ``1.7/4.8x``);
#: fractions (``8/255``, ``9/11``) have no decimals.
_SLASHED = re.compile(r"(?<![\w./])\d+\.\d+(?:\s?/\s?\d+\.\d+)+(?P<unit>x(?![\w])|×|%)?(?![\w/])")
_DECIMAL = re.compile(r"\d+\.\d+")


def _numbers(text: str, offset: int) -> list[tuple[int, int, str, str]]:
    """(start, end, value as written, kind) of every number of ``text`` that may state a result,
    in order: the matches of :data:`VALUE`, and each decimal of a slashed list, with the unit
    written after the last one (``1.7/4.8x``: ``1.7x`` and ``4.8x``)."""
    found = [(m.start(), m.end(), m.group(0), next(k for k, v in m.groupdict().items() if v is not None))
             for m in VALUE.finditer(text)]
    for match in _SLASHED.finditer(text):
        unit = match.group("unit") or ""
        for part in _DECIMAL.finditer(match.group(0)):
            start, end = match.start() + part.start(), match.start() + part.end()
            if not any(a < end and start < b for a, b, _, _ in found):  # ``4.8x`` matched whole already
                found.append((start, end, part.group(0) + unit, "unit" if unit else "bare"))
    return [(offset + a, offset + b, written, kind) for a, b, written, kind in sorted(found)]


def _listed_before(doc: Doc, candidate: Candidate, found: list[Candidate]) -> bool:
    """``by 61.22 and 6.80 perplexity``, ``3.08 or 2.52 FID``: a bare number right before the
    score it is listed with."""
    value = _tokens(doc, candidate.start, candidate.end)
    if value is None or value.end + 1 >= len(doc) or doc[value.end].lower_ not in _LISTING:
        return False
    after = doc[value.end + 1]
    return any(c.kind == "bare" and c.start == after.idx for c in found)



def _listed_after(doc: Doc, start: int, found: list[Candidate]) -> bool:
    """``FID of 2.97 on CIFAR-10 and 5.80 on CelebA``: a bare number listed after a score."""
    value = _tokens(doc, start, start + 1)
    if not found or value is None or value.start == 0 or doc[value.start - 1].lower_ not in _LISTING:
        return False
    last = _tokens(doc, found[-1].start, found[-1].end)
    return last is not None and found[-1].kind == "bare" and value.start - last.end <= 12


def _tokens(doc: Doc, start: int, end: int) -> Span | None:
    return doc.char_span(start, end, alignment_mode="expand")


def _next_to_metric(doc: Doc, start: int, end: int, metrics: list[Span]) -> bool:
    """A bare number is a score only next to a metric: ``BLEU 31.5``, ``FID of 5.17``, ``50.9 AP``,
    ``by 8.0 in average F-score``."""
    value = _tokens(doc, start, end)
    if value is None:
        return False
    for metric in metrics:
        glue = _past_short_form(doc[metric.end:value.start])
        if metric.end <= value.start and len(glue) <= 3 and all(t.lower_ in _METRIC_GLUE or t.is_punct for t in glue):
            return True
        if 0 <= metric.start - value.end <= 3 and all(t.lower_ in _VALUE_METRIC_GLUE for t in
                                                       doc[value.end:metric.start]):
            return True
    return False


def _on_dataset(doc: Doc, start: int, end: int, entities: list[Span]) -> bool:
    """``FID scores ...: 1.77 on CelebA-64, 1.93 on AFHQv2``: a bare number right before ``on`` a
    dataset, in a sentence that names a metric before it."""
    value = _tokens(doc, start, end)
    if value is None or value.end + 1 >= len(doc) or doc[value.end].lower_ not in ("on", "for"):
        return False
    after = doc[value.end + 1].idx
    return (any(e.label_ == "Dataset" and e.start_char == after for e in entities)
            and any(e.label_ == "Metric" and e.sent == value.sent and e.end <= value.start for e in entities))


def _after_score_verb(doc: Doc, start: int, end: int) -> bool:
    """``achieves 50.9 (ResNet-50) / 58.1 AP``: a bare number right after a verb of scoring."""
    value = _tokens(doc, start, end)
    if value is None or value.start == 0:
        return False
    before = doc[max(0, value.start - 2):value.start]
    return any(t.lower_ in _SCORE_VERBS for t in before)
