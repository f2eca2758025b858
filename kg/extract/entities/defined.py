"""Acronyms the text defines and their long forms, typed by the catalogue, the long form's head
or the recogniser; an untyped one that names nothing is blocked."""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.entities.candidate import PRIORITY_DEFINED, Candidate
from kg.extract.entities.catalogue import _names_entry
from kg.extract.entities.phrase_types import type_of_phrase


class DefinedCandidates:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``learned_key`` and ``vocab``,
    and adds the acronyms it drops to ``_blocked``."""

    def _defined(self, doc: Doc):
        at = self._catalogue_at(doc)
        learned_at = {(s.start, s.end): s.label_ for s in doc.spans.get(self.learned_key, [])}
        for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
            short = doc.char_span(s_start, s_end, alignment_mode="expand")
            long = doc.char_span(l_start, l_end, alignment_mode="expand")
            if short is None or long is None:
                continue
            while len(long) > 1 and long[0].whitespace_ and (
                long[0].tag_ in ("DT", "PDT", "PRP$") or long[0].lower_ == "such"
            ):
                long = long[1:]  # "such generative verifiers (GenRM)"
            match = at.get((short.start_char, short.end_char))
            label = match.label_ if match is not None and _names_entry(long.text, match.id_) else None
            label = label or type_of_phrase(long, self.vocab)
            if label is None and not self._names_something(doc, long):
                label = learned_at.get((short.start, short.end)) or learned_at.get((long.start, long.end))
                if label is None:
                    self._blocked.add(short.text)
                    continue
            yield Candidate(short.start, short.end, label, PRIORITY_DEFINED)
            yield Candidate(long.start, long.end, label, PRIORITY_DEFINED)

    @staticmethod
    def _names_something(doc: Doc, long: Span) -> bool:
        """An untyped long form still names something when set in bold or capitalised
        (``Modality kNowledge Alignment``); ``out-of-distribution (OOD)`` does not."""
        bold = any(long.start_char <= s < long.end_char for s, _, kind in doc._.kg_emphasis if kind != "quoted")
        return bold or any(t.text[:1].isupper() for t in long if t.is_alpha)
