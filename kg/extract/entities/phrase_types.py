"""The type a descriptive phrase names, read off its head word."""

from __future__ import annotations

from spacy.tokens import Span, Token

from kg.extract.vocabulary import Vocabulary
from kg.ids import singular_name

_TECHNIQUE_HEADS = {"generation", "prediction", "decoding", "inference", "sampling", "search", "learning", "control"}


def _is_adjective(token: Token, vocabulary: Vocabulary) -> bool:
    if token.pos_ == "ADJ" or token.tag_ in ("JJ", "VBN", "VBG"):
        return token.lower_ not in ("modeling", "modelling", "learning", "answering")
    return token.pos_ == "PROPN" and token.lower_.endswith(vocabulary.adjective_endings)


def type_of_phrase(span: Span, vocabulary: Vocabulary) -> str | None:
    """The type a descriptive phrase names, read off its head (last) word and modifiers."""
    words = [t for t in span if not t.is_punct]
    if not words:
        return None
    head = words[-1].lower_
    lemma = singular_name(head)
    if head in vocabulary.dataset_heads or lemma in vocabulary.dataset_heads:
        return "Dataset"
    if head in vocabulary.metric_heads or lemma in vocabulary.metric_heads:
        return "Metric"
    if head in vocabulary.task_heads or lemma in vocabulary.task_heads:
        modifiers = words[:-1]
        if lemma in _TECHNIQUE_HEADS and modifiers and _is_adjective(modifiers[-1], vocabulary):
            return "Method"  # speculative decoding, conformal prediction, augmented generation
        return "Task"
    if head in vocabulary.method_heads or lemma in vocabulary.method_heads:
        return "Method"
    return None
