"""``kg.Corpus.v1``: training examples whose predicted docs keep the gold tokens and sentences.

spaCy's own ``spacy.Corpus.v1`` re-tokenises the reference text (or, with
``gold_preproc``, cuts it into one example per sentence, which loses the
document-level relation offsets). The corpora here come tokenised, and
``kg evaluate`` runs pipelines on those same tokens, so the examples are built
the same way: the predicted doc has the reference's words, spaces and
sentence starts, and no other annotation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import registry

__all__ = ["create_corpus", "gold_token_examples"]


@registry.readers("kg.Corpus.v1")
def create_corpus(path: Path | None, limit: int = 0) -> Callable[[Language], Iterator[Example]]:
    """Examples from a ``.spacy`` file (``limit`` docs at most; 0 = all); spaCy's training
    loop shuffles them each epoch."""

    def read(nlp: Language) -> Iterator[Example]:
        if path is None:
            raise ValueError("kg.Corpus.v1: no path given (set paths.train / paths.dev)")
        docs = list(DocBin(store_user_data=True).from_disk(path).get_docs(nlp.vocab))
        if limit:
            docs = docs[:limit]
        yield from gold_token_examples(nlp, docs)

    return read


def gold_token_examples(nlp: Language, references: list[Doc]) -> Iterator[Example]:
    for reference in references:
        if not len(reference):
            continue
        sent_starts = None
        if reference.has_annotation("SENT_START"):
            sent_starts = [bool(t.is_sent_start) for t in reference]
        predicted = Doc(
            nlp.vocab,
            words=[t.text for t in reference],
            spaces=[bool(t.whitespace_) for t in reference],
            sent_starts=sent_starts,
        )
        yield Example(predicted, reference)
