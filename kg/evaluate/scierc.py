"""Score a pipeline on SciERC (Luan et al., EMNLP 2018): entities and relations.

The corpus is read in its processed JSON-lines form (one abstract per line:
``sentences``, ``ner`` as ``[start, end, label]`` and ``relations`` as
``[s1, e1, s2, e2, label]``, token indices into the whole document with
**inclusive** ends). :func:`read_scierc` turns every end into an exclusive one
(``end + 1``), the convention of spaCy spans, and everything after that works
with exclusive ends. Predictions written with ``--predictions`` go back to
inclusive ends, so they are SciERC JSON again (``predicted_ner``,
``predicted_relations``, the DyGIE output shape).

The pipeline runs on the corpus's own tokens: each abstract becomes one
:class:`~spacy.tokens.Doc` built from its words (PTB escapes such as ``-LRB-``
shown as the character they stand for, one token each), with the sentence
boundaries of the corpus, so predicted spans index the same tokens as gold.

Scores (the standard SciERC evaluation, as in DyGIE/PURE/PL-Marker):

* **entities**: a predicted span is correct when its start, end and type equal
  a gold entity's; per type and micro over the six types.
* **relations** ("relation F1", PURE's *Rel*): correct when both argument spans
  have exact boundaries, in the gold order (head, tail), and the label is the
  gold label; argument types are not checked.
* **relations, strict** (PURE's *Rel+*): as above, and the predicted types of
  both arguments equal the gold types.

Examples
--------
>>> import spacy
>>> record = SciercDoc("d", (("We", "parse", "text"),), ((1, 2, "Task"),), ())
>>> nlp = spacy.blank("en")
>>> report, _ = evaluate_scierc([record], nlp)
>>> report["entities"]["micro"]["gold"], report["entities"]["micro"]["predicted"]
(1, 0)
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc
from spacy.vocab import Vocab

from kg.evaluate.spans import EntitySource, entity_source, predicted_relations, pretokenised, score_items

__all__ = [
    "ENTITY_LABELS",
    "KG_TO_SCIERC",
    "RELATION_LABELS",
    "SciercDoc",
    "evaluate_scierc",
    "iter_sentences",
    "make_doc",
    "read_scierc",
    "to_prediction",
]

ENTITY_LABELS = ("Method", "OtherScientificTerm", "Task", "Generic", "Material", "Metric")
RELATION_LABELS = (
    "USED-FOR",
    "CONJUNCTION",
    "EVALUATE-FOR",
    "HYPONYM-OF",
    "PART-OF",
    "FEATURE-OF",
    "COMPARE",
)
# kg's own entity types -> SciERC types (datasets are Material, models are Method there).
KG_TO_SCIERC = {
    "Method": "Method",
    "Model": "Method",
    "Dataset": "Material",
    "Metric": "Metric",
    "Task": "Task",
}
# kg's rule relations (subject, predicate, object) -> SciERC (label, reversed?).
KG_RELATIONS_TO_SCIERC = {
    "uses": ("USED-FOR", True),  # A uses B       -> B USED-FOR A
    "applied_to": ("USED-FOR", False),  # A applied to T -> A USED-FOR T
    "evaluated_on": ("EVALUATE-FOR", True),  # A on D     -> D EVALUATE-FOR A
    "measured_by": ("EVALUATE-FOR", True),  # X by M     -> M EVALUATE-FOR X
    "compared_with": ("COMPARE", False),
}
PTB_ESCAPES = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
}


@dataclass(frozen=True, slots=True)
class SciercDoc:
    """One SciERC abstract; every span has an exclusive end (``words[start:end]``)."""

    doc_key: str
    sentences: tuple[tuple[str, ...], ...]
    entities: tuple[tuple[int, int, str], ...]
    relations: tuple[tuple[int, int, int, int, str], ...]

    @property
    def words(self) -> list[str]:
        return [w for sentence in self.sentences for w in sentence]


def read_scierc(path: str | Path) -> list[SciercDoc]:
    """Read a SciERC JSON-lines file; inclusive ends become exclusive (``end + 1``)."""
    records = []
    with Path(path).open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                records.append(_from_json(json.loads(line)))
    return records


def _from_json(data: dict) -> SciercDoc:
    entities = [(s, e + 1, label) for sentence in data.get("ner", []) for s, e, label in sentence]
    relations = [
        (s1, e1 + 1, s2, e2 + 1, label)
        for sentence in data.get("relations", [])
        for s1, e1, s2, e2, label in sentence
    ]
    return SciercDoc(
        doc_key=data["doc_key"],
        sentences=tuple(tuple(s) for s in data["sentences"]),
        entities=tuple(dict.fromkeys(entities)),
        relations=tuple(dict.fromkeys(relations)),
    )


def make_doc(vocab: Vocab, record: SciercDoc) -> Doc:
    """A Doc of the record's own tokens and sentences (no annotations)."""
    words = [PTB_ESCAPES.get(w, w) for w in record.words]
    sent_starts = [i == 0 for sentence in record.sentences for i in range(len(sentence))]
    return Doc(vocab, words=words, sent_starts=sent_starts)


def evaluate_scierc(
    records: Iterable[SciercDoc],
    nlp: Language,
    *,
    source: EntitySource | None = None,
    batch_size: int = 32,
) -> tuple[dict, list[dict]]:
    """Run ``nlp`` over the records and score it; returns the report and the predictions."""
    records = list(records)
    source = source or entity_source(nlp, KG_TO_SCIERC)
    gold_entities, pred_entities = set(), set()
    gold_relations, pred_relations = set(), set()
    gold_strict, pred_strict = set(), set()
    predictions = []
    started = time.perf_counter()
    docs = (make_doc(nlp.vocab, r) for r in records)
    with pretokenised(nlp):
        parsed = list(nlp.pipe(docs, batch_size=batch_size))
    for record, doc in zip(records, parsed):
        key = record.doc_key
        gold_types = {(s, e): label for s, e, label in record.entities}
        gold_entities |= {(key, s, e, label) for s, e, label in record.entities}
        gold_relations |= {(key, *r) for r in record.relations}
        gold_strict |= {
            (key, hs, he, gold_types.get((hs, he)), ts, te, gold_types.get((ts, te)), label)
            for hs, he, ts, te, label in record.relations
        }
        entities = source.spans(doc)
        types = {(s, e): label for s, e, label in entities}
        relations = predicted_relations(doc, KG_RELATIONS_TO_SCIERC)
        pred_entities |= {(key, s, e, label) for s, e, label in entities}
        pred_relations |= {(key, *r) for r in relations}
        pred_strict |= {
            (key, hs, he, types.get((hs, he)), ts, te, types.get((ts, te)), label)
            for hs, he, ts, te, label in relations
        }
        predictions.append(to_prediction(record, entities, relations))
    seconds = time.perf_counter() - started
    report = {
        "corpus": "scierc",
        "documents": len(records),
        "sentences": sum(len(r.sentences) for r in records),
        "tokens": sum(len(r.words) for r in records),
        "entity_source": source.describe(),
        "seconds": round(seconds, 2),
        "docs_per_second": round(len(records) / seconds, 1) if seconds else None,
        "entities": score_items(gold_entities, pred_entities, labels=ENTITY_LABELS),
        "relations": score_items(gold_relations, pred_relations, labels=RELATION_LABELS),
        "relations_strict": score_items(gold_strict, pred_strict, labels=RELATION_LABELS),
    }
    return report, predictions


def to_prediction(record: SciercDoc, entities, relations) -> dict:
    """A SciERC JSON record with ``predicted_ner`` / ``predicted_relations`` (inclusive ends)."""
    bounds = list(iter_sentences(record))

    def sentence_of(token: int) -> int:
        return next((i for i, (a, b) in enumerate(bounds) if a <= token < b), len(bounds) - 1)

    def by_sentence(items, first) -> list[list]:
        out: list[list] = [[] for _ in bounds]
        for item in sorted(items):
            out[sentence_of(first(item))].append(item)
        return out

    ner = [(s, e - 1, label) for s, e, label in record.entities]
    rel = [(hs, he - 1, ts, te - 1, label) for hs, he, ts, te, label in record.relations]
    pred_ner = [(s, e - 1, label) for s, e, label in entities]
    pred_rel = [(hs, he - 1, ts, te - 1, label) for hs, he, ts, te, label in relations]
    return {
        "doc_key": record.doc_key,
        "sentences": [list(s) for s in record.sentences],
        "ner": [[list(x) for x in s] for s in by_sentence(ner, lambda x: x[0])],
        "relations": [[list(x) for x in s] for s in by_sentence(rel, lambda x: x[0])],
        "predicted_ner": [[list(x) for x in s] for s in by_sentence(pred_ner, lambda x: x[0])],
        "predicted_relations": [
            [list(x) for x in s] for s in by_sentence(pred_rel, lambda x: x[0])
        ],
    }


def iter_sentences(record: SciercDoc) -> Iterator[tuple[int, int]]:
    """Document-level ``(start, end)`` token bounds of each sentence (exclusive end)."""
    start = 0
    for sentence in record.sentences:
        yield start, start + len(sentence)
        start += len(sentence)
