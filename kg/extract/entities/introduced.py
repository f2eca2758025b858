"""What the authors mark as a name of theirs: a phrase they introduce (``we introduce mixed-play``)
or set in italics, bold or quotes."""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.entities.candidate import PRIORITY_TITLE, Candidate
from kg.extract.entities.phrase_types import type_of_phrase
from kg.extract.entities.shapes import is_name_like
from kg.extract.sentences import doc_words
from kg.ids import singular_name

_OPENING_QUOTES = {'"', "“", "'", "‘", "``"}


def emphasized_spans(doc: Doc, max_tokens: int = 6) -> list[Span]:
    """The italic, bold or quoted phrases of ``doc`` (the cleaner's ``kg_emphasis``) of one to
    ``max_tokens`` tokens, without determiners or punctuation at their edges; single letters
    (bold-letter acronyms) and phrases without a word left out. Computed once per document:
    the candidates, and the features of every name, ask for them."""
    key = ("kg_emphasized", max_tokens)
    if key in doc.user_data:
        return doc.user_data[key]
    found = []
    for start, end, _ in doc._.kg_emphasis:
        span = doc.char_span(start, end, alignment_mode="contract")  # not the word of a bold letter
        if span is None:
            continue
        while len(span) and (span[0].is_punct or span[0].tag_ in ("DT", "PRP$")):
            span = span[1:]
        while len(span) and span[-1].is_punct and span[-1].text != ")":
            span = span[:-1]
        if 1 <= len(span) <= max_tokens and len(span.text) > 2 and any(t.is_alpha and not t.is_stop for t in span):
            found.append(span)
    doc.user_data[key] = found
    return found


class IntroducedCandidates:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``vocab`` and
    ``max_phrase_tokens``."""

    def _emphasized(self, doc: Doc):
        """Terms the authors set in italics or bold (``we introduce *topological parallax*``):
        a paper emphasises the names it coins; the learned decision says which are names."""
        for span in emphasized_spans(doc):
            if span[-1].pos_ in ("NOUN", "PROPN") or is_name_like(span.text, self.vocab):
                yield Candidate(span.start, span.end, type_of_phrase(span, self.vocab), PRIORITY_TITLE,
                                source="emphasis")

    def _introduced_phrases(self, doc: Doc):
        """The noun phrase a paper introduces, whatever its case: ``we introduce mixed-play``,
        ``a method called achievement distillation``, ``we propose a weight-momentum joint
        shrinking method``, ``we call "span rules"``, ``the proposed frequency domain transfer
        function``; the learned decision says which are names."""
        words = doc_words(doc)
        for i in range(len(words) - 1):
            word = words[i]
            if word not in self.vocab.naming_words and word not in self.vocab.propose_verbs and word not in (
                    "proposed", "as"):
                continue
            token = doc[i]
            slot = self.vocab.names_next(words[max(0, i - 1):i + 1]) or (
                word in self.vocab.propose_verbs and token.tag_ in ("VBP", "VBZ", "VBD", "VB")) or (
                word == "proposed" and token.i > 0 and doc[token.i - 1].lower_ in ("the", "our"))
            if not slot:
                continue
            start, end = self._introduced_at(doc, token.i + 1)
            if self._is_kind_only(doc[start:end]) and end + 1 < len(doc) and doc[end].text == ",":
                start, end = self._introduced_at(doc, end + 1)  # a novel architecture, Tandem transformers
            if end - start > 1 and self._is_kind_only(doc[end - 1:end]) \
                    and singular_name(doc[end - 1].lower_) not in self.vocab.kept_heads \
                    and not (doc[end - 2].pos_ == "ADJ" and doc[end - 2].text.islower()):
                end -= 1  # a weight-momentum joint shrinking method; not a spatial pyramid loss
            if end > start and not self._is_kind_only(doc[start:end]):
                yield Candidate(start, end, type_of_phrase(doc[start:end], self.vocab), PRIORITY_TITLE,
                                source="introduced")

    def _introduced_at(self, doc: Doc, start: int) -> tuple[int, int]:
        """The noun phrase from ``start``, without its article and generic words (``a novel``)."""
        while start < len(doc) and (doc[start].lower_ in self.vocab.generic_modifiers
                                    or doc[start].tag_ in ("DT", "PRP$") or doc[start].text in _OPENING_QUOTES):
            start += 1
        end = start
        while end < len(doc) and end - start <= self.max_phrase_tokens and self._in_introduced(doc, end):
            end += 1
        while end > start and not (doc[end - 1].pos_ in ("NOUN", "PROPN") or doc[end - 1].tag_ == "VBG"):
            end -= 1
        return (start, end) if end - start <= self.max_phrase_tokens + 1 else (start, start)

    def _in_introduced(self, doc: Doc, i: int) -> bool:
        """A word of an introduced noun phrase: a noun, adjective or participle, or a joining hyphen."""
        token = doc[i]
        if token.text in ("-", "+") and token.whitespace_ == "" and i > 0 and doc[i - 1].whitespace_ == "":
            return True
        if token.is_punct or token.is_stop or token.like_num:
            return False
        return token.pos_ in ("NOUN", "PROPN", "ADJ") or token.tag_ in ("VBG", "VBN")

    def _is_kind_only(self, span: Span) -> bool:
        """``a framework``, ``an efficient method``: a kind word and generic words, no name."""
        return all(t.lower_ in self.vocab.generic_heads or t.lower_ in self.vocab.generic_modifiers
                   or singular_name(t.lower_) in self.vocab.generic_heads for t in span)
