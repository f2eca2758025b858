"""``kg_learned_entities``: a trained recogniser of the five kg types, as candidates for the rules.

The recogniser (a CNN ``tok2vec`` with static vectors and a transition-based
``ner``, trained by ``kg train configs/entities.cfg`` on abstracts annotated
under ``tests/data/seeds_gold.md``) finds lower-case technical names and
typed phrases that word lists cannot list: ``weight decay``, ``alternating
projections``, ``catastrophic forgetting``. Its spans go to
``doc.spans[spans_key]``; :mod:`kg.extract.entities` weighs them with the
catalogue, acronym definitions and name shapes.

The trained pipeline is loaded in :meth:`LearnedEntities.initialize` from
``kg/extract/models/<model>`` (or a folder); its word vectors are installed in
the pipeline's vocab, where its ``StaticVectors`` layer looks them up.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.models import model_path

__all__ = ["LearnedEntities"]


@Language.factory(
    "kg_learned_entities",
    assigns=["doc.spans"],
    default_config={"model": "entities", "spans_key": "kg_learned"},
)
def make_learned_entities(nlp: Language, name: str, model: str, spans_key: str) -> LearnedEntities:
    return LearnedEntities(nlp, model=model, spans_key=spans_key)


class LearnedEntities:
    """Runs a trained ``ner`` (with its own ``tok2vec``) and stores its spans under ``spans_key``."""

    def __init__(self, nlp: Language, *, model: str, spans_key: str) -> None:
        self.nlp = nlp
        self.model = model
        self.spans_key = spans_key
        self._ner = None

    def _path(self) -> Path:
        return model_path(self.model)

    def initialize(self, get_examples=None, *, nlp: Language | None = None) -> None:
        import spacy

        path = self._path()
        if not (path / "config.cfg").is_file():
            raise ValueError(f"kg_learned_entities: no trained pipeline at {path}")
        trained = spacy.load(path)
        if "tok2vec" in trained.pipe_names:
            trained.replace_listeners("tok2vec", "ner", ["model.tok2vec"])
        self._ner = trained.get_pipe("ner")
        if trained.vocab.vectors.shape[0]:
            (nlp or self.nlp).vocab.vectors = trained.vocab.vectors

    def __call__(self, doc: Doc) -> Doc:
        return next(self.pipe([doc]))

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        if self._ner is None:
            raise ValueError("kg_learned_entities: call nlp.initialize() first (it loads the model)")
        buffer: list[Doc] = []
        for doc in docs:
            buffer.append(doc)
            if len(buffer) == batch_size:
                yield from self._annotate(buffer)
                buffer = []
        if buffer:
            yield from self._annotate(buffer)

    def _annotate(self, docs: list[Doc]) -> list[Doc]:
        saved = [d.ents for d in docs]
        for doc in docs:
            doc.ents = ()
        states = self._ner.predict(docs)
        self._ner.set_annotations(docs, states)
        for doc, ents in zip(docs, saved):
            doc.spans[self.spans_key] = [Span(doc, e.start, e.end, label=e.label_) for e in doc.ents]
            doc.ents = ents
        return docs
