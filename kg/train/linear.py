"""Train the learned decisions of extraction (:class:`~kg.extract.linear.LinearModel`) on annotated abstracts.

The annotations are gold files in the shape of ``tests/data/openreview_gold``
(entities, relations); their abstracts come from JSON Lines files (``id``,
``abstract``). Each abstract goes through kg's own pipeline, so the examples
are the candidates the components will really see at run time; a candidate
is labelled by matching entity names to the gold (:func:`kg.ids.name_key`).
scikit-learn fits a multinomial logistic regression (``pip install
'research-kg[train]'``); only its weights are kept.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy
from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.entities.context_types import KIND_ENDINGS
from kg.extract.linear import LinearModel
from kg.extract.mentions import display_name
from kg.extract.proposals import _by_name, proposal_features
from kg.extract.relations import RelationFinder
from kg.extract.vocabulary import default_vocabulary
from kg.train.annotated_names import LeaveOneOut, annotated_names_of
from kg.ids import name_key

__all__ = ["DEFAULT_C", "annotated_docs", "choice_examples", "fit", "proposal_examples", "relation_examples", "result_examples",
           "train_choice", "train_proposals", "train_relations", "train_results"]


def _read_jsonl(paths: Iterable[str | Path]) -> Iterator[dict]:
    for path in paths:
        with Path(path).open(encoding="utf-8") as handle:
            yield from (json.loads(line) for line in handle if line.strip())


def annotated_docs(nlp: Language, gold: Iterable[str | Path], abstracts: Iterable[str | Path],
                   until: str = "kg_relations", learned_spans: dict | None = None) -> Iterator[tuple[Doc, dict]]:
    """Each gold record with its abstract run through ``nlp`` (cleaned as ``kg build`` cleans)
    up to, not including, the component ``until``. ``learned_spans`` (id -> ``[(start_char,
    end_char, label)]``) stand in for the learned recogniser: predictions made by a model
    that did not see the abstract (cross-validation), as at run time."""
    text = {r["id"]: r["abstract"] for r in _read_jsonl(abstracts)}
    records = [r for r in _read_jsonl(gold) if r["id"] in text]
    names = nlp.pipe_names[: nlp.pipe_names.index(until)] if until in nlp.pipe_names else nlp.pipe_names
    for record in records:
        doc = nlp.make_doc(text[record["id"]])
        doc._.kg_title = record.get("title") or ""  # kg_clean, first of the names below, cleans it
        for name in names:
            if name == "kg_learned_entities" and learned_spans is not None:
                spans = [doc.char_span(s, e, label=label) for s, e, label in learned_spans.get(record["id"], ())]
                doc.spans["kg_learned"] = [s for s in spans if s is not None]
            else:
                doc = nlp.get_pipe(name)(doc)
        yield doc, record


def _gold_index(record: dict) -> dict[str, str]:
    """Name keys (name and aliases) -> the gold entity's name."""
    index: dict[str, str] = {}
    for entity in record["entities"]:
        for form in (entity["name"], *entity.get("aliases", ())):
            index.setdefault(name_key(form), entity["name"])
    return index


def _gold_of(span: Span, index: dict[str, str]) -> str | None:
    return index.get(name_key(display_name(span.text))) or index.get(name_key(span.text))


def relation_examples(doc: Doc, record: dict, finder: RelationFinder,
                      annotated=None) -> Iterator[tuple[list[str], str]]:
    """(features, predicate or ``none``) for every candidate pair ``finder`` (``kg_relations``) decides
    in ``doc``; ``annotated``, the annotated-names table as the abstract would see it (:class:`LeaveOneOut`)."""
    index = _gold_index(record)
    gold = {(r["subject"], r["object"]): r["predicate"] for r in record.get("relations", ())}
    for bag in finder.bags(doc, annotated):
        yield bag.features, gold.get((_gold_of(bag.subject, index), _gold_of(bag.object, index)), "none")


#: Inverse regularisation strength per decision, chosen on the dev set and the 480s held out
#: (docs/quality.md): the relation features are many and sparse (about 30,000 over 58,000
#: pairs), so they want more; so does the entity decision (about 28,000 over 126,000 names).
DEFAULT_C = {"choice": 1.0, "entities": 0.25, "proposals": 1.0, "relations": 0.12, "results": 1.0}


def fit(examples: list[tuple[list[str], str]], *, c: float = 1.0, min_count: int = 2) -> LinearModel:
    """A multinomial logistic regression on binary features seen at least ``min_count`` times."""
    try:
        from scipy.sparse import csr_matrix
        from sklearn.linear_model import LogisticRegression
    except ImportError as error:
        from kg.extras import install_hint

        raise ModuleNotFoundError(f"kg train-linear needs scikit-learn: {install_hint('train')}",
                                  name=error.name) from error

    counts: dict[str, int] = {}
    for features, _ in examples:
        for f in set(features):
            counts[f] = counts.get(f, 0) + 1
    names = sorted(f for f, n in counts.items() if n >= min_count)
    index = {f: i for i, f in enumerate(names)}
    rows, cols = [], []
    for r, (features, _) in enumerate(examples):
        for f in set(features):
            if f in index:
                rows.append(r)
                cols.append(index[f])
    x = csr_matrix((numpy.ones(len(rows)), (rows, cols)), shape=(len(examples), len(names)))
    y = [label for _, label in examples]
    classifier = LogisticRegression(C=c, max_iter=2000)
    classifier.fit(x, y)
    classes = [str(c) for c in classifier.classes_]
    weights, bias = classifier.coef_.T, classifier.intercept_
    if len(classes) == 2:  # binary: one column of weights for the second class
        weights = numpy.hstack([numpy.zeros_like(weights), weights])
        bias = numpy.array([0.0, bias[0]])
    keep = numpy.abs(weights).max(axis=1) > 1e-4
    return LinearModel(classes, [n for n, k in zip(names, keep) if k], weights[keep], bias)


def fit_and_save(examples: list[tuple[list[str], str]], output: str | Path, c: float) -> dict:
    """Fit on ``examples``, write the model to ``output`` and say what it was fitted on."""
    model = fit(examples, c=c)
    model.save(output)
    return {"examples": len(examples), "labels": dict(Counter(label for _, label in examples)),
            "features": len(model.features)}


def train_relations(nlp: Language, gold: Iterable[str | Path], abstracts: Iterable[str | Path],
                    output: str | Path, *, c: float = 1.0, learned_spans: dict | None = None) -> dict:
    docs = annotated_docs(nlp, gold, abstracts, until="kg_relations", learned_spans=learned_spans)
    finder = nlp.get_pipe("kg_relations")
    counts = annotated_names_of(tuple(gold), tuple(abstracts)) if finder.annotated_names else None
    return fit_and_save([ex for doc, record in docs for ex in relation_examples(
        doc, record, finder, None if counts is None else LeaveOneOut(counts, record, doc.text))], output, c)


def proposal_examples(doc: Doc, record: dict, finder) -> Iterator[tuple[list[str], str]]:
    """(features, ``proposed`` or ``no``) for every distinct entity name of ``doc``."""
    index = _gold_index(record)
    proposed = {e["name"] for e in record["entities"] if e["proposed"]}
    entities = list(doc.spans.get("kg_entities", []))
    _, reasons = finder._by_patterns(doc, entities)
    starts = [sent.start for sent in doc.sents]
    by_pattern = {name_key(entities[i].text) for i in reasons}
    for indices in _by_name(entities).values():
        label = "proposed" if _gold_of(entities[indices[0]], index) in proposed else "no"
        yield proposal_features(doc, entities, indices, reasons, default_vocabulary(), starts, by_pattern,
                                nameable=finder._nameable(entities[indices[0]])), label


def train_proposals(nlp: Language, gold: Iterable[str | Path], abstracts: Iterable[str | Path],
                    output: str | Path, *, c: float = 1.0, learned_spans: dict | None = None) -> dict:
    finder = nlp.get_pipe("kg_proposals")
    docs = annotated_docs(nlp, gold, abstracts, until="kg_proposals", learned_spans=learned_spans)
    return fit_and_save([ex for doc, record in docs for ex in proposal_examples(doc, record, finder)], output, c)


def _gold_types(record: dict) -> dict[str, str]:
    """Name keys (name and aliases) -> the gold entity's type."""
    types: dict[str, str] = {}
    for entity in record["entities"]:
        for form in (entity["name"], *entity.get("aliases", ())):
            types.setdefault(name_key(form), entity["type"])
    return types


#: Trailing words the recogniser takes off a name of their type (``language modeling tasks``).
_KIND_WORDS = frozenset().union(*KIND_ENDINGS.values())


def choice_examples(doc: Doc, record: dict, recognizer) -> Iterator[tuple[list[str], str]]:
    """(features, gold type or ``none``) for every candidate that another of a different extent
    overlaps: the candidate is right when its extent (without a trailing kind word) is where the
    gold names something, the longest gold name there (``filter SBI``, not the ``SBI`` inside it)."""
    from kg.extract.entities.ranking import conflicting_features
    from kg.train.convert import gold_spans

    gold = {(s.start, s.end): s.label_ for s in gold_spans(doc, record)}
    candidates, learned = recognizer.candidates(doc)
    for c, feats in conflicting_features(doc, candidates, learned, recognizer.vocab):
        label = gold.get((c.start, c.end))
        if label is None and c.end - c.start > 1 and doc[c.end - 1].lower_ in _KIND_WORDS:
            label = gold.get((c.start, c.end - 1))  # ``language modeling tasks``: the kind word goes
        yield feats, label or "none"


def train_choice(nlp: Language, gold: Iterable[str | Path], abstracts: Iterable[str | Path],
                 output: str | Path, *, c: float = 1.0, learned_spans: dict | None = None) -> dict:
    recognizer = nlp.get_pipe("kg_entities")
    docs = annotated_docs(nlp, gold, abstracts, until="kg_entities", learned_spans=learned_spans)
    return fit_and_save([ex for doc, record in docs for ex in choice_examples(doc, record, recognizer)], output, c)


def entity_examples(doc: Doc, record: dict, recognizer, annotated=None) -> Iterator[tuple[list[str], str]]:
    """(features, gold type or ``none``) for every name the rules and the recogniser choose."""
    from kg.extract.entities import candidate_groups, entity_features

    types = _gold_types(record)
    chosen, learned = recognizer.choose(doc)
    learned_at = {(c.start, c.end): c.label for c in learned}
    groups = candidate_groups(doc, chosen)
    for key, group in groups.items():
        span = doc[group[0].start:group[0].end]
        label = types.get(name_key(display_name(span.text))) or types.get(key) or "none"
        yield entity_features(doc, group, learned_at, default_vocabulary(), set(groups), annotated), label


def train_entities(nlp: Language, gold: Iterable[str | Path], abstracts: Iterable[str | Path],
                   output: str | Path, *, c: float = 1.0, learned_spans: dict | None = None) -> dict:
    recognizer = nlp.get_pipe("kg_entities")
    docs = annotated_docs(nlp, gold, abstracts, until="kg_entities", learned_spans=learned_spans)
    counts = None
    if recognizer.annotated_names:  # the table kg build reads, counted here without each abstract's own part
        counts = annotated_names_of(tuple(gold), tuple(abstracts))
    return fit_and_save([ex for doc, record in docs for ex in entity_examples(
        doc, record, recognizer, None if counts is None else LeaveOneOut(counts, record, doc.text))], output, c)



def result_examples(doc: Doc, record: dict) -> Iterator[tuple[list[str], str]]:
    """(features, ``result`` or ``no``) for every value candidate of ``doc``: a result when it states
    the numbers of a gold result of the paper. A candidate stating only part of a gold value's
    numbers (``16%`` of ``4-16%``) is left out: neither answer would be right."""
    from kg.evaluate.results import value_numbers
    from kg.extract.results import candidate_features, result_candidates
    from kg.extract.sentences import spans_by_sentence

    gold = [value_numbers(r["value"]) for r in record.get("results", ())]
    sentences = spans_by_sentence(doc, list(doc.spans.get("kg_entities", [])))
    for n, (sent, inside) in enumerate(sentences):
        position = "first" if n == 0 else "last" if n == len(sentences) - 1 else "middle"
        for cand in result_candidates(doc, sent, inside):
            numbers = value_numbers(cand.text)
            if numbers in gold:
                label = "result"
            elif any(set(numbers) < set(g) for g in gold):
                continue
            else:
                label = "no"
            yield candidate_features(doc, sent, inside, cand, position), label


def train_results(nlp: Language, gold: Iterable[str | Path], abstracts: Iterable[str | Path],
                  output: str | Path, *, c: float = 1.0, learned_spans: dict | None = None) -> dict:
    docs = annotated_docs(nlp, gold, abstracts, until="kg_results", learned_spans=learned_spans)
    return fit_and_save([ex for doc, record in docs for ex in result_examples(doc, record)], output, c)
