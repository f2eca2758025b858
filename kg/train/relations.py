"""``kg_relation_classifier``: a trainable spaCy component that labels entity pairs.

For every ordered pair of entity spans inside one sentence, the model builds a
feature vector from the token vectors of a ``tok2vec`` layer (usually a
listener of the pipeline's shared ``tok2vec``):

* the first and last token vector of the head span and of the tail span, and
  the mean over each span;
* the mean over the tokens between the two spans (zeros when they touch);
* one-hot features: the entity type of head and tail, which comes first, and
  the token distance in 8 buckets;

then a hidden ReLU layer and a softmax over the relation labels plus ``NONE``.
Training pairs come from the gold entities of the reference docs (so the
classifier does not depend on the recogniser's errors while learning); at
prediction time it labels pairs of the entities already on the doc
(``doc.ents``, or ``doc.spans[spans_key]``).

Relations are written to ``doc._.kg_span_relations`` as token offsets,
``[(h_start, h_end, t_start, t_end, label, probability), ...]`` (exclusive
ends); gold docs carry the same list without the probability.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry
from thinc.api import Model, Optimizer, Relu, Softmax, chain, set_dropout_rate
from thinc.types import Floats2d

__all__ = ["NONE", "RelationClassifier", "build_relation_model", "score_relations"]

NONE = "NONE"
_DISTANCE_BUCKETS = (0, 1, 2, 4, 7, 11, 17, 26)  # lower bounds: 8 buckets
_N_FLAGS = 2 + len(_DISTANCE_BUCKETS)

if not Doc.has_extension("kg_span_relations"):
    Doc.set_extension("kg_span_relations", default=None)


@registry.architectures("kg.RelationClassifier.v1")
def build_relation_model(
    tok2vec: Model, hidden_width: int = 150, max_entity_labels: int = 16, dropout: float = 0.2
) -> Model:
    """Pair features over ``tok2vec`` -> ReLU -> softmax (``nO`` set by the component)."""
    model = chain(
        _pair_features(tok2vec, max_entity_labels),
        Relu(nO=hidden_width, dropout=dropout),
        Softmax(),
    )
    model.set_ref("tok2vec", tok2vec)
    model.set_ref("output", model.layers[-1])
    return model


def _pair_features(tok2vec: Model, max_entity_labels: int) -> Model:
    return Model(
        "kg_pair_features",
        _pair_forward,
        layers=[tok2vec],
        dims={"nO": None},
        attrs={"max_entity_labels": max_entity_labels},
        init=_pair_init,
    )


def _pair_init(model: Model, X=None, Y=None) -> None:
    tok2vec = model.layers[0]
    if X is not None:
        tok2vec.initialize(X=X[0])
    else:
        tok2vec.initialize()
    width = tok2vec.get_dim("nO")
    model.set_dim("nO", 7 * width + 2 * model.attrs["max_entity_labels"] + _N_FLAGS)


def _pair_forward(model: Model, inputs, is_train: bool):
    """``inputs = (docs, pairs)``; ``pairs[i]`` is an int array ``(n, 6)`` per doc:
    head start, head end, tail start, tail end, head type id, tail type id."""
    docs, pairs = inputs
    tokvecs, backprop_tok2vec = model.layers[0](docs, is_train)
    xp = model.ops.xp
    n_labels = model.attrs["max_entity_labels"]
    outputs, saved = [], []
    for X, P in zip(tokvecs, pairs):
        n = P.shape[0]
        if n == 0:
            saved.append(None)
            continue
        hs, he, ts, te = P[:, 0], P[:, 1], P[:, 2], P[:, 3]
        head_first = hs < ts
        b_start = xp.where(head_first, he, te)
        b_end = xp.where(head_first, ts, hs)
        b_end = xp.maximum(b_start, b_end)
        cumulative = xp.vstack([xp.zeros((1, X.shape[1]), dtype=X.dtype), X.cumsum(axis=0)])
        h_len = (he - hs).astype(X.dtype)[:, None]
        t_len = (te - ts).astype(X.dtype)[:, None]
        b_len = xp.maximum(b_end - b_start, 1).astype(X.dtype)[:, None]
        flags = xp.zeros((n, 2 * n_labels + _N_FLAGS), dtype=X.dtype)
        flags[xp.arange(n), xp.minimum(P[:, 4], n_labels - 1)] = 1
        flags[xp.arange(n), n_labels + xp.minimum(P[:, 5], n_labels - 1)] = 1
        flags[xp.arange(n), 2 * n_labels + head_first.astype("i")] = 1
        distance = xp.maximum(b_end - b_start, 0)
        bucket = xp.searchsorted(xp.asarray(_DISTANCE_BUCKETS), distance, side="right") - 1
        flags[xp.arange(n), 2 * n_labels + 2 + bucket] = 1
        outputs.append(
            xp.hstack(
                [
                    X[hs],
                    X[he - 1],
                    (cumulative[he] - cumulative[hs]) / h_len,
                    X[ts],
                    X[te - 1],
                    (cumulative[te] - cumulative[ts]) / t_len,
                    (cumulative[b_end] - cumulative[b_start]) / b_len,
                    flags,
                ]
            )
        )
        saved.append((hs, he, ts, te, b_start, b_end, h_len, t_len, b_len))
    width = model.get_dim("nO")
    output = xp.vstack(outputs) if outputs else model.ops.alloc2f(0, width)

    def backprop(d_output: Floats2d):
        d_tokvecs = []
        offset = 0
        for X, state in zip(tokvecs, saved):
            dX = xp.zeros_like(X)
            if state is None:
                d_tokvecs.append(dX)
                continue
            hs, he, ts, te, b_start, b_end, h_len, t_len, b_len = state
            n = hs.shape[0]
            d = d_output[offset : offset + n]
            offset += n
            w = X.shape[1]
            xp.add.at(dX, hs, d[:, 0:w])
            xp.add.at(dX, he - 1, d[:, w : 2 * w])
            xp.add.at(dX, ts, d[:, 3 * w : 4 * w])
            xp.add.at(dX, te - 1, d[:, 4 * w : 5 * w])
            # The gradient of a mean over [a, b) reaches every row in it: add d/len
            # at a, subtract it at b, and take the running sum.
            diff = xp.zeros((X.shape[0] + 1, w), dtype=X.dtype)
            for a, b, length, cols in (
                (hs, he, h_len, slice(2 * w, 3 * w)),
                (ts, te, t_len, slice(5 * w, 6 * w)),
                (b_start, b_end, b_len, slice(6 * w, 7 * w)),
            ):
                share = d[:, cols] / length
                xp.add.at(diff, a, share)
                xp.add.at(diff, b, -share)
            dX += diff.cumsum(axis=0)[:-1]
            d_tokvecs.append(dX)
        return backprop_tok2vec(d_tokvecs)

    return output, backprop


@Language.factory(
    "kg_relation_classifier",
    assigns=["doc._.kg_span_relations"],
    default_config={
        "model": {
            "@architectures": "kg.RelationClassifier.v1",
            "tok2vec": {
                "@architectures": "spacy.Tok2VecListener.v1",
                "width": 96,
                "upstream": "*",
            },
        },
        "spans_key": None,
        "threshold": 0.5,
        "negative_weight": 1.0,
        "scorer": {"@scorers": "kg.relation_scorer.v1"},
    },
    default_score_weights={"rel_micro_f": 1.0, "rel_micro_p": 0.0, "rel_micro_r": 0.0},
)
def make_relation_classifier(
    nlp: Language,
    name: str,
    model: Model,
    *,
    spans_key: str | None,
    threshold: float,
    negative_weight: float,
    scorer: Callable | None,
):
    return RelationClassifier(
        nlp.vocab,
        model,
        name,
        spans_key=spans_key,
        threshold=threshold,
        negative_weight=negative_weight,
        scorer=scorer,
    )


class RelationClassifier(TrainablePipe):
    """Label ordered pairs of entities in a sentence with a relation (or none)."""

    def __init__(
        self,
        vocab,
        model: Model,
        name: str = "kg_relation_classifier",
        *,
        spans_key: str | None = None,
        threshold: float = 0.5,
        negative_weight: float = 1.0,
        scorer: Callable | None = None,
    ) -> None:
        self.vocab = vocab
        self.model = model
        self.name = name
        self.scorer = scorer
        self.cfg = {
            "labels": [],
            "entity_labels": [],
            "spans_key": spans_key,
            "threshold": threshold,
            "negative_weight": negative_weight,
        }

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.cfg["labels"])

    def add_label(self, label: str) -> int:
        if label in self.cfg["labels"]:
            return 0
        self._allow_extra_label()
        self.cfg["labels"].append(label)
        return 1

    # -- instances -----------------------------------------------------------

    def _entities(self, doc: Doc) -> list[Span]:
        key = self.cfg["spans_key"]
        return list(doc.ents) if key is None else list(doc.spans.get(key, []))

    def _pairs(self, doc: Doc, spans: Iterable[Span]) -> numpy.ndarray:
        """All ordered pairs of distinct spans that share a sentence, as an int array."""
        entity_ids = {label: i + 1 for i, label in enumerate(self.cfg["entity_labels"])}
        by_sentence: dict[int, list[Span]] = {}
        starts = _sentence_starts(doc)
        for span in spans:
            by_sentence.setdefault(starts[span.start], []).append(span)
        rows = []
        for group in by_sentence.values():
            for head in group:
                for tail in group:
                    if (head.start, head.end) != (tail.start, tail.end):
                        rows.append(
                            (
                                head.start,
                                head.end,
                                tail.start,
                                tail.end,
                                entity_ids.get(head.label_, 0),
                                entity_ids.get(tail.label_, 0),
                            )
                        )
        return self.model.ops.xp.asarray(rows, dtype="i").reshape((-1, 6))

    # -- prediction ------------------------------------------------------------

    def predict(self, docs: Iterable[Doc]):
        docs = list(docs)
        pairs = [self._pairs(doc, self._entities(doc)) for doc in docs]
        if not any(len(p) for p in pairs):
            return pairs, self.model.ops.alloc2f(0, len(self.labels) + 1)
        return pairs, self.model.predict((docs, pairs))

    def set_annotations(self, docs: Iterable[Doc], predictions) -> None:
        pairs, scores = predictions
        labels = [NONE, *self.labels]
        threshold = self.cfg["threshold"]
        offset = 0
        for doc, P in zip(docs, pairs):
            found = []
            for row, probs in zip(P.tolist(), scores[offset : offset + len(P)]):
                best = int(probs.argmax())
                if best and float(probs[best]) >= threshold:
                    found.append((*row[:4], labels[best], round(float(probs[best]), 4)))
            offset += len(P)
            doc._.kg_span_relations = found

    # -- training --------------------------------------------------------------

    def _gold(self, example: Example) -> tuple[numpy.ndarray, list[int]]:
        """Pairs of the reference's entities (on the predicted tokens) and their label ids."""
        reference = example.reference
        if len(reference) != len(example.predicted) or any(
            a.text != b.text for a, b in zip(reference, example.predicted)
        ):
            raise ValueError("kg_relation_classifier needs the gold tokens (use kg.Corpus.v1)")
        spans = self._entities(reference)
        pairs = self._pairs(example.predicted, spans)
        label_ids = {label: i + 1 for i, label in enumerate(self.labels)}
        gold = {tuple(r[:4]): label_ids.get(r[4], 0) for r in reference._.kg_span_relations or ()}
        truth = [gold.get(tuple(row[:4]), 0) for row in pairs.tolist()]
        return pairs, truth

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optimizer | None = None,
        losses: dict[str, float] | None = None,
    ):
        losses = {} if losses is None else losses
        losses.setdefault(self.name, 0.0)
        examples = list(examples)
        gold = [self._gold(eg) for eg in examples]
        pairs = [p for p, _ in gold]
        truth = [t for _, ts in gold for t in ts]
        if not truth:
            return losses
        set_dropout_rate(self.model, drop)
        docs = [eg.predicted for eg in examples]
        scores, backprop = self.model.begin_update((docs, pairs))
        loss, d_scores = self._loss(scores, truth)
        backprop(d_scores)
        if sgd is not None:
            self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def _loss(self, scores: Floats2d, truth: list[int]) -> tuple[float, Floats2d]:
        xp = self.model.ops.xp
        target = xp.zeros_like(scores)
        target[xp.arange(len(truth)), xp.asarray(truth)] = 1.0
        weights = xp.where(xp.asarray(truth) == 0, self.cfg["negative_weight"], 1.0)
        weights = weights.astype(scores.dtype)[:, None]
        d_scores = (scores - target) * weights / len(truth)
        loss = float(-(weights * target * xp.log(scores + 1e-9)).sum() / len(truth))
        return loss, d_scores

    def get_loss(self, examples: Iterable[Example], scores) -> tuple[float, Floats2d]:
        truth = [t for eg in examples for t in self._gold(eg)[1]]
        return self._loss(scores, truth)

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Language | None = None,
        labels: Iterable[str] | None = None,
    ) -> None:
        entity_labels: set[str] = set()
        relation_labels: set[str] = set(labels or ())
        sample = []
        for example in get_examples():
            entity_labels.update(s.label_ for s in self._entities(example.reference))
            if labels is None:
                relation_labels.update(r[4] for r in example.reference._.kg_span_relations or ())
            if len(sample) < 10:
                sample.append(example)
        self.cfg["labels"] = sorted(relation_labels)
        self.cfg["entity_labels"] = sorted(entity_labels)
        self.model.get_ref("output").set_dim("nO", len(self.labels) + 1)
        docs = [eg.predicted for eg in sample]
        pairs = [self._gold(eg)[0] for eg in sample]
        self.model.initialize(X=(docs, pairs))


def _sentence_starts(doc: Doc) -> list[int]:
    """The start token of each token's sentence (the whole doc when it has no sentences)."""
    if not doc.has_annotation("SENT_START"):
        return [0] * len(doc)
    starts, current = [], 0
    for token in doc:
        if token.is_sent_start:
            current = token.i
        starts.append(current)
    return starts


def score_relations(examples: Iterable[Example], **kwargs) -> dict[str, float]:
    """Exact labelled relation P/R/F (both argument spans and the label), micro."""
    tp = n_pred = n_gold = 0
    for example in examples:
        pred = {tuple(r[:5]) for r in example.predicted._.kg_span_relations or ()}
        gold = {tuple(r[:5]) for r in example.reference._.kg_span_relations or ()}
        tp += len(pred & gold)
        n_pred += len(pred)
        n_gold += len(gold)
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {
        "rel_micro_p": p,
        "rel_micro_r": r,
        "rel_micro_f": 2 * p * r / (p + r) if p + r else 0.0,
    }


@registry.scorers("kg.relation_scorer.v1")
def make_relation_scorer() -> Callable:
    return score_relations
