"""The ``kg_results`` spaCy component: candidates, the learned decision, then attribution, into
``doc._.kg_results``."""

from __future__ import annotations

from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.linear import LinearModel
from kg.extract.models import MODELS_DIR
from kg.extract.results.attribution import _attribute
from kg.extract.results.candidates import Candidate, result_candidates
from kg.extract.results.features import candidate_features
from kg.extract.results.words import _ACTORS
from kg.extract.relations import proposed_benchmark, relation_subjects
from kg.extract.sentences import spans_by_sentence

if not Doc.has_extension("kg_results"):
    Doc.set_extension("kg_results", default=[])


@Language.factory(
    "kg_results",
    assigns=["doc._.kg_results"],
    requires=["doc.spans"],
    default_config={"spans_key": "kg_entities", "proposed_key": "kg_proposed", "model": "results.npz",
                    "threshold": 0.5},
)
def make_result_finder(nlp: Language, name: str, spans_key: str, proposed_key: str, model: str,
                       threshold: float):
    return ResultFinder(spans_key=spans_key, proposed_key=proposed_key, model=model, threshold=threshold,
                        tokenizer=nlp.tokenizer)


class ResultFinder:
    def __init__(self, *, spans_key: str, proposed_key: str, model: str = "", threshold: float = 0.5,
                 tokenizer=None) -> None:
        self.spans_key = spans_key
        self.tokenizer = tokenizer  # reads the title's names (none without it)
        self.proposed_key = proposed_key
        self.threshold = threshold
        path = Path(model) if model and Path(model).is_file() else MODELS_DIR / model if model else None
        self.classifier = LinearModel.load(path) if path is not None and path.is_file() else None

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.spans_key, []))
        proposed = list(doc.spans.get(self.proposed_key, []))
        # the proposal relations hang on, or the title's name (a span of the title: its offsets are marked so)
        main = next((m for m in relation_subjects(doc, proposed, 1, self.tokenizer)
                     if m.label_ in _ACTORS or m.doc is not doc), None)
        sentences = spans_by_sentence(doc, entities)
        results = []
        for n, (sent, in_sent) in enumerate(sentences):
            position = "first" if n == 0 else "last" if n == len(sentences) - 1 else "middle"
            kept = [c for c in result_candidates(doc, sent, in_sent)
                    if self.is_result(doc, sent, in_sent, c, position)]
            results += _attribute(doc, sent, in_sent, kept, main)
        _on_the_benchmark(results, proposed)
        doc._.kg_results = results
        return doc

    def is_result(self, doc: Doc, sent: Span, entities: list[Span], cand: Candidate, position: str) -> bool:
        if self.classifier is None or cand.kind == "paren":  # ``50.4% (+8.2%)``: a score with its gain
            return True
        features = candidate_features(doc, sent, entities, cand, position)
        return self.classifier.probability(features, "result") >= self.threshold


def _on_the_benchmark(results: list[dict], proposed: list[Span]) -> None:
    """A benchmark paper reports its results on its benchmark (``We introduce ZorbQA ... GPT-4o
    reaches only 54.2% exact match``): a result whose sentence names no dataset is on it."""
    benchmark = proposed_benchmark(proposed)
    if benchmark is None:
        return
    for result in results:
        if result["dataset"] is None:
            result["dataset"] = (benchmark.start_char, benchmark.end_char)
