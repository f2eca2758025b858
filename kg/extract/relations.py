"""Relations between the entities of one sentence, read off trigger words and types.

=============== ======================================= ==========================
predicate       trigger (between or before the pair)    subject -> object types
=============== ======================================= ==========================
compared_with   outperforms, surpasses, compared with   Method/Model -> Method/Model
extends         extends, builds on, variant of          Method/Model -> Method/Model
uses            using, leverages, based on, via         Method/Model -> Method/Model/Dataset
evaluated_on    evaluate, experiments, results, on      Method/Model -> Dataset
applied_to      for, to, on, applied to                 Method/Model -> Task
measured_by     in terms of, measured by, (same clause) Dataset/Task/Method -> Metric
=============== ======================================= ==========================

The subject of a sentence about *we* / *our method* / *experiments* is the
paper's proposed entity when it has one. Relations are stored as character
offsets (clean text) in ``doc._.kg_relations``:
``[(subj_start, subj_end, predicate, obj_start, obj_end, ev_start, ev_end), ...]``.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.sentences import spans_by_sentence

__all__ = ["RelationFinder"]

if not Doc.has_extension("kg_relations"):
    Doc.set_extension("kg_relations", default=[])

_ACTORS = {"Method", "Model"}
_COMPARE = {
    "outperform", "outperforms", "outperforming", "outperformed", "surpass", "surpasses",
    "surpassing", "beat", "beats", "beating", "versus", "vs", "vs.", "than", "rival", "rivals",
    "rivaling", "compared", "comparing", "compare", "exceeds", "exceed",
}
_EXTEND = {
    "extend", "extends", "extending", "extended", "generalize", "generalizes", "generalise",
    "generalises", "variant", "upon", "inspired", "improves", "improving",
}
_USE = {
    "use", "uses", "using", "used", "leverage", "leverages", "leveraging", "employ", "employs",
    "employing", "based", "built", "via", "adopt", "adopts", "utilize", "utilizes", "utilizing",
    "incorporate", "incorporates", "incorporating", "combining", "combines", "with", "through",
}
_EVALUATE = {
    "evaluate", "evaluates", "evaluated", "evaluating", "evaluation", "evaluations", "experiment",
    "experiments", "results", "benchmark", "benchmarks", "test", "tested", "validate",
    "validated", "demonstrate", "demonstrates", "achieves", "achieve", "achieving", "on", "across",
}
_APPLY = {"for", "to", "on", "in", "applied", "apply", "applies", "tackle", "tackles", "address", "addresses"}
_MEASURE = {"terms", "measured", "measure", "metric", "metrics", "in", "of", "by", "with"}
_WE = {"we", "our", "ours", "experiments", "experiment", "results", "evaluations", "method", "approach", "framework"}


@Language.factory(
    "kg_relations",
    assigns=["doc._.kg_relations"],
    requires=["doc.spans"],
    default_config={"spans_key": "kg_entities", "proposed_key": "kg_proposed"},
)
def make_relation_finder(nlp: Language, name: str, spans_key: str, proposed_key: str):
    return RelationFinder(spans_key=spans_key, proposed_key=proposed_key)


class RelationFinder:
    def __init__(self, *, spans_key: str, proposed_key: str) -> None:
        self.spans_key = spans_key
        self.proposed_key = proposed_key

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.spans_key, []))
        proposed = list(doc.spans.get(self.proposed_key, []))
        main = next((p for p in proposed if p.label_ in _ACTORS), proposed[0] if proposed else None)
        found: dict[tuple, tuple] = {}
        for sent, in_sent in spans_by_sentence(doc, entities):
            for subj, pred, obj in self._sentence(sent, in_sent, main):
                if subj.text.lower() == obj.text.lower():
                    continue
                key = (subj.start_char, subj.end_char, pred, obj.start_char, obj.end_char)
                found.setdefault(key, (*key, sent.start_char, sent.end_char))
        doc._.kg_relations = list(found.values())
        return doc

    def _sentence(self, sent: Span, ents: list[Span], main: Span | None):
        words = {t.lower_ for t in sent}  # once per sentence, not once per pair
        actors = [e for e in ents if e.label_ in _ACTORS]
        subject = self._subject(sent, actors, main, words)
        for obj in ents:
            if subject is None or obj.start == subject.start:
                continue
            between = self._between(sent, subject, obj)
            if obj.label_ in _ACTORS:
                if between & _COMPARE:
                    yield subject, "compared_with", obj
                elif between & _EXTEND:
                    yield subject, "extends", obj
                elif between & _USE:
                    yield subject, "uses", obj
            elif obj.label_ == "Dataset":
                if words & _EVALUATE or between & _EVALUATE:
                    yield subject, "evaluated_on", obj
                elif between & _USE:
                    yield subject, "uses", obj
            elif obj.label_ == "Task" and between & _APPLY:
                yield subject, "applied_to", obj
        metrics = [e for e in ents if e.label_ == "Metric"]
        measured = [e for e in ents if e.label_ in ("Dataset", "Task")] or (
            [subject] if subject is not None else []
        )
        if words & _MEASURE:
            for metric in metrics:
                for thing in measured:
                    yield thing, "measured_by", metric

    @staticmethod
    def _subject(sent: Span, actors: list[Span], main: Span | None, words: set[str]):
        if main is not None:
            for actor in actors:
                if actor.text.lower() == main.text.lower():
                    return actor
            if words & _WE:
                return main
        return actors[0] if actors else None

    @staticmethod
    def _between(sent: Span, a: Span, b: Span) -> set[str]:
        doc = sent.doc
        if a.doc is not doc or not (sent.start <= a.start < sent.end):
            start, end = sent.start, b.start
        elif a.end <= b.start:
            start, end = a.end, b.start
        else:
            start, end = b.end, a.start
            return {t.lower_ for t in doc[max(sent.start, start - 1) : end]} & _USE
        return {t.lower_ for t in doc[start:end]}

