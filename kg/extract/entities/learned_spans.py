"""The learned recogniser's spans as candidates, without lists, cut brackets, formulas or values."""

from __future__ import annotations

from spacy.tokens import Doc, Token

from kg.extract.entities.candidate import Candidate
from kg.extract.entities.shapes import _CITATION_KEY

_FORMULA = set("=≠<>|_^√{}−")


def _is_measurement(token: Token) -> bool:
    """A decimal or percentage (``5.17``, ``31.5%``), never a version number (``Llama 2``)."""
    return token.like_num and ("." in token.text or "," in token.text) or token.text in ("%",)


def _glued_word_after(doc: Doc, i: int) -> bool:
    """A word right after the hyphen ending at ``i`` (no space between): the name goes on."""
    return i < len(doc) and not doc[i - 1].whitespace_ and doc[i].is_alpha


class LearnedCandidates:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``learned_key`` and
    ``learned_priority``."""

    def _learned(self, doc: Doc):
        for span in doc.spans.get(self.learned_key, []):
            if any(t.text == "," or t.tag_ == "CC" for t in span[1:-1]):
                continue  # "WinoBias and Winogender benchmarks": a list, its parts are the names
            text = span.text
            if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
                continue  # "KV) cache": the recogniser cut across brackets
            if any(c in text for c in _FORMULA) or _CITATION_KEY.match(text):
                continue  # "V1−V2ln((o2ν¯2κ)...": a formula, not a name
            end = span.end
            while end - span.start > 1 and _is_measurement(doc[end - 1]):
                end -= 1  # "FID 5.17": the value is not part of the name
            if end - span.start > 1 and doc[end - 1].text == "-":
                end += 1 if _glued_word_after(doc, end) else -1  # "Gemma-2-9B-" of "Gemma-2-9B-it"
            yield Candidate(span.start, end, span.label_, self.learned_priority, source="learned")
