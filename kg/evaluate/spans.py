"""Exact-match precision, recall and F1 over sets of typed items (spans, relations).

An item is a hashable tuple whose first field is the document id and whose
last field is its type (label), e.g. ``(doc_id, start, end, label)`` for an
entity span or ``(doc_id, h_start, h_end, t_start, t_end, label)`` for a
relation. Gold and predictions are compared as *sets* (a duplicate counts
once): an item is a true positive when the identical tuple is in both. Scores
are given per type and micro-averaged over all types (``"micro"``: the counts
summed, then P/R/F1).

Examples
--------
>>> gold = {("d", 0, 2, "Task"), ("d", 5, 6, "Method")}
>>> pred = {("d", 0, 2, "Task"), ("d", 5, 7, "Method")}
>>> report = score_items(gold, pred)
>>> report["micro"]["f1"], report["Task"]["f1"], report["Method"]["tp"]
(0.5, 1.0, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc

from kg.evaluate.names import prf

__all__ = ["EntitySource", "entity_source", "pretokenised", "predicted_relations", "prf", "score_items"]


def pretokenised(nlp: Language):
    """``nlp`` without its ``kg_clean`` component, for Docs built from a corpus's own tokens:
    cleaning would re-tokenise a text it changes and lose the gold token indices."""
    cleaners = [name for name in nlp.pipe_names if nlp.get_pipe_meta(name).factory == "kg_clean"]
    return nlp.select_pipes(disable=cleaners)


def score_items(
    gold: Iterable[tuple], predicted: Iterable[tuple], *, labels: Sequence[str] | None = None
) -> dict[str, dict[str, float | int]]:
    """Per-type and micro P/R/F1 of ``predicted`` against ``gold`` (exact tuples, as sets).

    ``labels`` fixes the per-type rows (in that order; types outside it still
    count in the micro figure); by default every type seen in either set.
    """
    gold_set, pred_set = set(gold), set(predicted)
    tp = Counter(item[-1] for item in gold_set & pred_set)
    n_gold = Counter(item[-1] for item in gold_set)
    n_pred = Counter(item[-1] for item in pred_set)
    if labels is None:
        labels = sorted(set(n_gold) | set(n_pred))
    report: dict[str, dict[str, float | int]] = {
        label: prf(tp[label], n_pred[label], n_gold[label]) for label in labels
    }
    report["micro"] = prf(sum(tp.values()), len(pred_set), len(gold_set))
    return report


@dataclass(frozen=True)
class EntitySource:
    """Where a pipeline puts its entity predictions, and how their labels map to a corpus's.

    ``key`` is ``None`` for ``doc.ents`` (spaCy ``ner``), else a ``doc.spans``
    key (``spancat``, kg's rule-based ``kg_entities``). ``label_map`` renames
    labels (labels missing from it are kept as they are); when ``keep`` is given,
    spans whose (mapped) label is outside it are dropped, i.e. ignored rather
    than counted as false positives.
    """

    key: str | None = None
    label_map: Mapping[str, str] | None = None
    keep: frozenset[str] | None = None

    def spans(self, doc: Doc) -> list[tuple[int, int, str]]:
        """Sorted, unique ``(start, end, label)`` token spans (exclusive end)."""
        found = doc.ents if self.key is None else doc.spans.get(self.key, [])
        out = set()
        for span in found:
            label = span.label_
            if self.label_map is not None:
                label = self.label_map.get(label, label)
            if self.keep is None or label in self.keep:
                out.add((span.start, span.end, label))
        return sorted(out)

    def describe(self) -> str:
        where = "doc.ents" if self.key is None else f"doc.spans[{self.key!r}]"
        return where + (" (labels mapped)" if self.label_map else "")


def entity_source(
    nlp: Language,
    kg_label_map: Mapping[str, str] | None = None,
    *,
    keep: Iterable[str] | None = None,
) -> EntitySource:
    """The entity predictions of ``nlp``: ``ner`` -> ``doc.ents``; ``spancat`` -> its key;
    else kg's rule-based ``kg_entities`` with ``kg_label_map`` applied."""
    keep_set = frozenset(keep) if keep is not None else None
    factories = {name: nlp.get_pipe_meta(name).factory for name in nlp.pipe_names}
    if "ner" in factories.values():
        return EntitySource(None, None, keep_set)
    for name, factory in factories.items():
        if factory in ("spancat", "spancat_singlelabel"):
            key = nlp.get_pipe(name).key  # type: ignore[attr-defined]
            return EntitySource(key, None, keep_set)
    for name, factory in factories.items():
        if factory == "kg_entities":
            key = nlp.get_pipe_config(name).get("spans_key", "kg_entities")
            return EntitySource(key, kg_label_map, keep_set)
    return EntitySource(None, None, keep_set)


def predicted_relations(
    doc: Doc, kg_relation_map: Mapping[str, tuple[str, bool]] | None = None
) -> list[tuple[int, int, int, int, str]]:
    """``(h_start, h_end, t_start, t_end, label)`` token spans (exclusive ends) of the
    relations predicted on ``doc``.

    Read from ``doc._.kg_span_relations`` (the trained ``kg_relation_classifier``)
    and from ``doc._.kg_relations`` (kg's rule-based relations; character
    offsets, mapped with ``kg_relation_map``: predicate -> (label, reversed);
    predicates outside the map are left out).
    """
    out: set[tuple[int, int, int, int, str]] = set()
    if Doc.has_extension("kg_span_relations"):
        for hs, he, ts, te, label, *_ in doc._.kg_span_relations or ():
            out.add((hs, he, ts, te, label))
    if kg_relation_map and Doc.has_extension("kg_relations"):
        for s_start, s_end, predicate, o_start, o_end, *_ in doc._.kg_relations or ():
            if predicate not in kg_relation_map:
                continue
            label, reverse = kg_relation_map[predicate]
            subject = doc.char_span(s_start, s_end, alignment_mode="expand")
            obj = doc.char_span(o_start, o_end, alignment_mode="expand")
            if subject is None or obj is None:
                continue
            head, tail = (obj, subject) if reverse else (subject, obj)
            out.add((head.start, head.end, tail.start, tail.end, label))
    return sorted(out)
