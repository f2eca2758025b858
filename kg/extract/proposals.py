"""What the paper itself introduces and names.

Patterns, all general syntax (no names are listed anywhere):
- a proposing verb with *we* / *this paper* / *this work* and a named entity in
  its object: ``we introduce AFLOW, an automated framework``;
- a naming word: ``dubbed DIOTM``, ``a framework named AtSpeed``;
- ``X, a novel ... model`` and, at the start of an abstract, ``X is a ... model``;
- ``our (proposed|resulting|new) X``;
- an acronym defined by bold letters;
- an acronym the abstract defines whose long form the paper proposes.
The proposed entity takes the type of the descriptive noun it is given
(``AFLOW, an automated framework`` -> Method; ``a benchmark named X`` -> Dataset).
Proposed spans are copied to ``doc.spans[proposed_key]``.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.entities import is_name_like, type_of_phrase
from kg.extract.vocabulary import Vocabulary

__all__ = ["ProposalFinder"]

_SUBJECTS = {"we", "paper", "work", "study", "article", "i"}
_APPOSITION_ARTICLES = {"a", "an", "the"}
_PRETRAINED = {"language", "foundation", "pretrained", "pre-trained", "vision-language", "multimodal"}


@Language.factory(
    "kg_proposals",
    assigns=["doc.spans"],
    requires=["doc.spans"],
    default_config={
        "spans_key": "kg_entities",
        "proposed_key": "kg_proposed",
        "window": 14,
        "vocabulary": {"@misc": "kg.vocabulary.v1"},
    },
)
def make_proposal_finder(
    nlp: Language, name: str, spans_key: str, proposed_key: str, window: int, vocabulary: Vocabulary
):
    return ProposalFinder(
        spans_key=spans_key, proposed_key=proposed_key, window=window, vocabulary=vocabulary
    )


def _reduced_relative(words: Span, i: int) -> bool:
    """``a benchmark designed to evaluate ... LLMs``: a participle after a noun describes
    that noun; it does not make the words after it the paper's proposal."""
    return words[i].tag_ == "VBN" and i > 0 and words[i - 1].pos_ in ("NOUN", "PROPN")


class ProposalFinder:
    def __init__(self, *, spans_key: str, proposed_key: str, window: int, vocabulary: Vocabulary):
        self.spans_key = spans_key
        self.proposed_key = proposed_key
        self.window = window
        self.vocab = vocabulary

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.spans_key, []))
        proposed: dict[int, str | None] = {}  # entity index -> type from its description
        for index, ent in enumerate(entities):
            if ent.kb_id_ or not self._nameable(ent):
                continue
            described = self._proposal_type(doc, ent, entities)
            if described is not False:
                proposed[index] = described
        self._through_acronyms(doc, entities, proposed)
        relabeled = []
        for index, ent in enumerate(entities):
            label = proposed.get(index) or ent.label_
            relabeled.append(Span(doc, ent.start, ent.end, label=label, kb_id=ent.kb_id))
        doc.spans[self.spans_key] = relabeled
        doc.spans[self.proposed_key] = [relabeled[i] for i in sorted(proposed)]
        return doc

    def _nameable(self, ent: Span) -> bool:
        return is_name_like(ent.text, self.vocab) or ent.text[:1].isupper()

    def _proposal_type(self, doc: Doc, ent: Span, entities: list[Span]):
        """False when ``ent`` is not proposed, else the type its description gives (or None)."""
        sent = ent.sent
        before = doc[max(sent.start, ent.start - self.window) : ent.start]
        lowers = [t.lower_ for t in before]
        description = self._description(doc, ent)
        has_subject = any(t.lower_ in _SUBJECTS for t in sent)
        if before and before[-1].lower_ in self.vocab.naming_words:
            return self._described_by_preceding(doc, ent) or description
        verb_positions = [
            i for i, w in enumerate(lowers)
            if w in self.vocab.propose_verbs and not _reduced_relative(before, i)
        ]
        if verb_positions and has_subject:
            span_after_verb = before[verb_positions[-1] + 1 :]
            if not any(t.text in (".", ";", ":") for t in span_after_verb) and not any(
                t.lower_ in ("that", "which", "whether", "how") for t in span_after_verb
            ):
                if not self._other_entity_between(doc, span_after_verb, ent, entities):
                    return description or self._described_by_preceding(doc, ent)
        if lowers[-2:] in (["our", "proposed"], ["our", "resulting"], ["our", "new"]):
            return description
        if description and (ent.start == sent.start or lowers[-1:] == ["("]) and has_subject:
            return description
        if ent.start == 0 and ent.end < len(doc) and doc[ent.end].lower_ == "is":
            return self._description_after(doc, ent.end + 1, released=True) or False
        return False

    @staticmethod
    def _other_entity_between(doc: Doc, span: Span, ent: Span, entities: list[Span]) -> bool:
        """Another entity between the verb and ``ent``: ``ent`` is not the verb's object
        (unless ``ent`` is that entity's acronym in parentheses)."""
        if ent.start > 0 and doc[ent.start - 1].text == "(":
            return False
        return any(span.start <= other.start and other.end <= span.end for other in entities)

    def _description(self, doc: Doc, ent: Span) -> str | None:
        """The type named by an apposition: ``X, a novel graph generative model``."""
        i = ent.end
        if i + 1 < len(doc) and doc[i].text in (",", "(", ":", "—", "–") and (
            doc[i + 1].lower_ in _APPOSITION_ARTICLES
        ):
            return self._description_after(doc, i + 1)
        return None

    def _description_after(self, doc: Doc, i: int, released: bool = False) -> str | None:
        end = i
        while end < len(doc) and end - i < 10 and not doc[end].is_punct | (doc[end].text == "-"):
            if doc[end].lower_ in ("that", "which", "for", "to", "of", "with", "on", "in", "by", "based"):
                break
            end += 1
        for j in range(end, i, -1):
            kind = type_of_phrase(doc[i:j], self.vocab)
            if kind:
                return self._generic_type(doc[i:j], released) or kind
        return None

    def _described_by_preceding(self, doc: Doc, ent: Span) -> str | None:
        """``a framework named X``, ``framework (X)``: the head before the name."""
        for j in range(ent.start - 1, max(ent.sent.start, ent.start - 8) - 1, -1):
            kind = self._generic_type(doc[max(ent.sent.start, j - 3) : j + 1])
            if kind:
                return kind
        return None

    def _generic_type(self, description: Span, released: bool = False) -> str | None:
        """The type a description's head word gives. A *model* is a Model when it is a
        released, pretrained or language model, else a Method (a kind of approach)."""
        word = description[-1].lower_
        if word in self.vocab.dataset_heads:
            return "Dataset"
        if word in ("model", "models", "llm", "llms"):
            words = {t.lower_ for t in description}
            return "Model" if released or words & _PRETRAINED or word.startswith("llm") else "Method"
        if word in ("metric", "measure", "score"):
            return "Metric"
        if word in self.vocab.method_heads:
            return "Method"
        return None

    def _through_acronyms(self, doc: Doc, entities: list[Span], proposed: dict) -> None:
        """Propagate between an acronym and its long form; and treat bold-letter acronyms."""
        bold = {(s, e) for s, e, kind in doc._.kg_emphasis if kind == "bold"}
        by_char = {(e.start_char, e.end_char): i for i, e in enumerate(entities)}
        for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
            short = self._overlapping(by_char, s_start, s_end)
            long = self._overlapping(by_char, l_start, l_end)
            if short is None or entities[short].kb_id_:
                continue
            long_has_bold = any(l_start <= s < l_end for s, _ in bold)
            if long is not None and long in proposed:
                proposed.setdefault(short, proposed[long])
            elif long_has_bold and l_end - l_start > s_end - s_start:
                proposed.setdefault(short, None)
            if short in proposed:
                if long is not None:
                    proposed[long] = proposed[short]
            elif long is not None and self._long_form_proposed(doc, entities[long]):
                proposed[short] = proposed[long] = None

    def _long_form_proposed(self, doc: Doc, long: Span) -> bool:
        before = doc[max(long.sent.start, long.start - 6) : long.start]
        lowers = [t.lower_ for t in before]
        if any(pair in (("our", "proposed"), ("our", "new")) for pair in zip(lowers, lowers[1:])):
            return True
        if any(w in self.vocab.propose_verbs for w in lowers) and any(
            t.lower_ in _SUBJECTS for t in long.sent
        ):
            return not any(t.text in ",;:" for t in before[-3:])
        return False

    @staticmethod
    def _overlapping(by_char: dict, start: int, end: int) -> int | None:
        exact = by_char.get((start, end))
        if exact is not None:
            return exact
        for (s, e), i in by_char.items():
            if s <= start < e or start <= s < end:
                return i
        return None
