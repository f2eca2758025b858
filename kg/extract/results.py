"""Numeric results as stated: ``4.5× end-to-end speedup``, ``up to 12.97%``, ``5% → 45.3%``.

Each value found in a sentence is tied to the nearest metric (a Metric entity,
else the result noun next to it), a dataset (``on GSM8K``), a baseline
(``over X``, ``than X``, ``compared with X``) and the entity it is for (the
sentence's method or model, else the paper's proposed entity). Stored as
dicts with character offsets (clean text) in ``doc._.kg_results``.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.sentences import spans_by_sentence

__all__ = ["ResultFinder", "VALUE"]

if not Doc.has_extension("kg_results"):
    Doc.set_extension("kg_results", default=[])

_NUMBER = r"\d+(?:[.,]\d+)?"
_UNIT = r"(?:\s?%|\s?×|x\b|-fold\b|\s?times\b|\s?(?:percentage\s)?points?\b|\s?pp\b)"
_MAGNITUDE = r"[KMB]?"
VALUE = re.compile(
    rf"(?:(?:up to|over|more than|nearly|around|about|approximately|at least|by|from)\s+)?"
    rf"(?:{_NUMBER}{_UNIT}?\s?(?:→|->|⇒|to)\s?{_NUMBER}{_UNIT}"
    rf"|{_NUMBER}{_MAGNITUDE}\s?(?:→|->|⇒)\s?{_NUMBER}{_MAGNITUDE}(?![\w.])"
    rf"|(?<=from ){_NUMBER}[KMB]\s?to\s?{_NUMBER}[KMB]\b"
    rf"|(?<=factor of ){_NUMBER}(?:\s?[-–]\s?{_NUMBER})?x?\b"
    rf"|{_NUMBER}\s?[-–]\s?{_NUMBER}{_UNIT}"
    rf"|{_NUMBER}{_UNIT})",
    re.IGNORECASE,
)
_RESULT_NOUNS = re.compile(
    r"^\s*(?:(?:relative|absolute|average|overall|end-to-end|[a-z]+-[a-z]+)\s+)*"
    r"(speed-?ups?|improvements?|increases?|gains?|boosts?|reductions?|decreases?|"
    r"accelerations?|acceleration|lower [a-z]+|higher [a-z]+|fewer [a-z]+|less [a-z]+|"
    r"better [a-z]+|accuracy|error|savings?)",
    re.IGNORECASE,
)
_BASELINE_TRIGGERS = {"over", "than", "vs", "vs.", "versus", "against", "outperforms", "outperform"}
_ACTORS = {"Method", "Model"}


@Language.factory(
    "kg_results",
    assigns=["doc._.kg_results"],
    requires=["doc.spans"],
    default_config={"spans_key": "kg_entities", "proposed_key": "kg_proposed"},
)
def make_result_finder(nlp: Language, name: str, spans_key: str, proposed_key: str):
    return ResultFinder(spans_key=spans_key, proposed_key=proposed_key)


class ResultFinder:
    def __init__(self, *, spans_key: str, proposed_key: str) -> None:
        self.spans_key = spans_key
        self.proposed_key = proposed_key

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.spans_key, []))
        proposed = list(doc.spans.get(self.proposed_key, []))
        main = next((p for p in proposed if p.label_ in _ACTORS), proposed[0] if proposed else None)
        results = []
        for sent, in_sent in spans_by_sentence(doc, entities):
            for match in VALUE.finditer(sent.text):
                start = sent.start_char + match.start()
                end = sent.start_char + match.end()
                if any(e.start_char <= start < e.end_char for e in in_sent):
                    continue  # a number inside a name (GPT-4, 8x7B)
                results.append(self._result(doc, sent, in_sent, start, end, main))
        doc._.kg_results = results
        return doc

    def _result(self, doc, sent: Span, ents: list[Span], start: int, end: int, main):
        metric = self._metric(doc, sent, ents, start, end)
        after = [e for e in ents if e.start_char >= end]
        before = [e for e in ents if e.end_char <= start]
        dataset = next((e for e in after if e.label_ == "Dataset"), None) or next(
            (e for e in reversed(before) if e.label_ == "Dataset"), None
        )
        baseline = None
        for ent in ents:
            if ent.label_ in _ACTORS and ent.start > sent.start:
                window = {t.lower_ for t in doc[max(sent.start, ent.start - 3) : ent.start]}
                if window & _BASELINE_TRIGGERS or "compared" in window:
                    baseline = ent
        subject = next((e for e in reversed(before) if e.label_ in _ACTORS and e is not baseline), None)
        if subject is None and main is not None:
            subject = main
        return {
            "value": _text(sent, start, end).replace("×", "x").strip(),
            "start": start,
            "end": end,
            "metric": metric,
            "subject": _offsets(subject),
            "dataset": _offsets(dataset),
            "baseline": _offsets(baseline) if baseline is not subject else None,
        }

    @staticmethod
    def _metric(doc: Doc, sent: Span, ents: list[Span], start: int, end: int) -> str:
        metrics = [e for e in ents if e.label_ == "Metric"]
        if metrics:
            nearest = min(metrics, key=lambda e: min(abs(e.start_char - end), abs(start - e.end_char)))
            if abs(nearest.start_char - end) < 60 or abs(start - nearest.end_char) < 60:
                return nearest.text
        noun = _RESULT_NOUNS.match(_text(sent, end, sent.end_char))
        before = _measured_before(doc, sent, start)
        if noun and not (before and noun.group(1).lower().startswith("factor")):
            return noun.group(0).strip()
        return before or "value"


def _measured_before(doc: Doc, sent: Span, start: int) -> str | None:
    """``reduces KV cache memory usage by up to 75%``, ``steps by a factor of 32``: the noun
    phrase before *by* / *of*."""
    value = doc.char_span(start, start + 1, alignment_mode="expand")
    if value is None:
        return None
    i = value.start - 1
    while i > sent.start and doc[i].lower_ in ("up", "to", "by", "of", "a", "an", "the", "factor"):
        if doc[i].lower_ in ("by", "of") and doc[i - 1].lower_ not in ("factor", "a", "by"):
            end = first = i
            while first > sent.start and end - first < 5 and doc[first - 1].pos_ in ("NOUN", "PROPN", "ADJ"):
                first -= 1
            return doc[first:end].text if first < end else None
        i -= 1
    return None


def _text(sent: Span, start: int, end: int) -> str:
    """Text between two offsets of the doc, read from the sentence: ``doc.text`` is built
    anew on each access, which made each value cost the length of the whole abstract."""
    return sent.text[start - sent.start_char : end - sent.start_char]


def _offsets(span: Span | None) -> tuple[int, int] | None:
    return (span.start_char, span.end_char) if span is not None else None
