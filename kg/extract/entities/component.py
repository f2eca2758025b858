"""The registered ``kg_entities`` factory and :class:`EntityRecognizer`: candidates from every rule,
the choice among them, their types, then the learned decision, into ``doc.spans[spans_key]``."""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.entities.candidate import Candidate
from kg.extract.entities.catalogue import CatalogueCandidates
from kg.extract.entities.choice import (
    CandidateChoice, _favour_whole_names, _label_as_learned, strengthen_around_catalogue,
)
from kg.extract.entities.context_types import ContextTyping
from kg.extract.entities.defined import DefinedCandidates
from kg.extract.entities.features import candidate_groups, entity_features
from kg.extract.entities.introduced import IntroducedCandidates
from kg.extract.entities.learned_spans import LearnedCandidates
from kg.extract.entities.names import NameCandidates
from kg.extract.entities.phrases import PhraseCandidates
from kg.extract.entities.ranking import rank_candidates
from kg.extract.entities.shapes import is_year
from kg.extract.lexicons import catalogue_entry, catalogue_ids_of, term_key
from kg.extract.linear import LinearModel
from kg.extract.models import model_path, read_annotated_names
from kg.extract.vocabulary import Vocabulary


@Language.factory(
    "kg_entities",
    assigns=["doc.spans"],
    requires=["doc._.kg_abbreviations"],
    default_config={
        "spans_key": "kg_entities",
        "catalogue_key": "kg_catalogue",
        "max_phrase_tokens": 5,
        "vocabulary": {"@misc": "kg.vocabulary.v1"},
        "learned_key": "kg_learned",
        "learned_priority": 1.5,
        "rule_phrases": True,
        "noun_phrases": True,
        "model": "entities.npz",
        "threshold": 0.6,
        "choice_model": "choice.npz",
        "keep_agreed": True,
        "annotated_names": "annotated_names.tsv.gz",
        "min_annotated": 3,
        "min_annotated_share": 0.6,
    },
)
def make_entity_recognizer(
    nlp: Language,
    name: str,
    spans_key: str,
    catalogue_key: str,
    max_phrase_tokens: int,
    vocabulary: Vocabulary,
    learned_key: str,
    learned_priority: float,
    rule_phrases: bool,
    noun_phrases: bool,
    model: str,
    threshold: float,
    choice_model: str,
    keep_agreed: bool,
    annotated_names: str,
    min_annotated: int,
    min_annotated_share: float,
):
    return EntityRecognizer(
        spans_key=spans_key,
        catalogue_key=catalogue_key,
        max_phrase_tokens=max_phrase_tokens,
        vocabulary=vocabulary,
        learned_key=learned_key,
        learned_priority=learned_priority,
        rule_phrases=rule_phrases,
        noun_phrases=noun_phrases,
        model=model,
        threshold=threshold,
        choice_model=choice_model,
        keep_agreed=keep_agreed,
        annotated_names=annotated_names,
        min_annotated=min_annotated,
        min_annotated_share=min_annotated_share,
    )


#: ``doc.user_data`` key of the entity decision's doubt about each kept name: token extent -> P(none).
DOUBT = "kg_entity_doubt"


def doubt_tenths(p_none: float) -> str:
    """The entity decision's doubt about a name it kept, as a feature value for the decisions after
    it (a proposal or relation of a doubtful name is doubtful too): P(none) in tenths up to a half,
    ``0`` to ``4``, then ``5+``. Finer than three levels (below 0.2, below 0.4, above) by measure:
    relations pooled 0.4024 -> 0.4044, proposals 0.8114 -> 0.8135 (docs/quality.md).

    >>> doubt_tenths(0.05), doubt_tenths(0.37), doubt_tenths(0.71)
    ('0', '3', '5+')
    """
    tenths = int(p_none * 10)
    return str(tenths) if tenths < 5 else "5+"


#: A Metric the decision doubts less than this stays when written after ``in terms of``.
IN_TERMS_OF_THRESHOLD = 0.9
_BEFORE_SCORE = frozenset("of = : is was".split())
_SCORE_UNITS = frozenset("% points point pp".split())
_IN_A_LIST = frozenset("NOUN PROPN ADJ DET CCONJ NUM".split())


def _scores_a_number(doc: Doc, c: Candidate) -> bool:
    """A catalogued metric written with its number (``by 2.8 nDCG@10``, ``an FID of 5.17``,
    ``BLEU 31.5``): the number reads it as the metric, a second reading beside the catalogue's;
    not a year (``SODA 2007``). The metric's catalogue reading may have lost to another of the
    same words (``an average F1 of 78.4``: ``average F1`` is an entry too)."""
    if c.label != "Metric" or (c.source != "catalogue" and not catalogue_ids_of(doc[c.start:c.end].text, "Metric")):
        return False
    after = list(doc[c.end:c.end + 3])
    while after and after[0].lower_ in _BEFORE_SCORE:
        after = after[1:]
    if after and _score_like(after[0]):
        return True
    before = list(doc[max(0, c.start - 2):c.start])
    if before and before[-1].lower_ in _SCORE_UNITS:
        before = before[:-1]
    return bool(before) and _score_like(before[-1])


def _measured_in_terms_of(doc: Doc, c: Candidate) -> bool:
    """A name in the list after ``in terms of`` (``outperforms baselines in terms of robustness
    and query budget``): what a comparison is measured by."""
    i = c.start - 1
    while i >= 2 and c.start - i <= 16:
        token = doc[i]
        if token.lower_ == "of" and doc[i - 1].lower_ == "terms" and doc[i - 2].lower_ == "in":
            return True
        if token.text not in (",", "-") and token.pos_ not in _IN_A_LIST:
            return False
        i -= 1
    return False


_DIMENSION = re.compile(r"^\d[dD]$")


def _with_dimension(doc: Doc, c: Candidate) -> None:
    """``3D visual grounding``, ``2D pose estimation``: the dimension written before a name is part
    of it (the annotation's names keep it in 126 of 130 such places), and the longer name is
    no longer the catalogue entry inside it."""
    if c.start > 0 and _DIMENSION.match(doc[c.start - 1].text) and doc[c.start - 1].whitespace_ \
            and doc[c.start].is_lower:
        c.start -= 1
        c.kb_id = ""


_VERSION = re.compile(r"^[vV]\d+(?:\.\d+)*$")
_DOTTED = re.compile(r"^\d\.\d{1,2}$")
#: Words after a number that make it a value, not a version: ``ImageNet 1.2 million images``.
_AFTER_A_VALUE = frozenset("% x × times fold points point pp million billion thousand m b k".split())


def _with_version(doc: Doc, c: Candidate) -> None:
    """``Stable Diffusion v1.5``, ``MoCo v3``, ``LLaVA-v1.5``, ``AlpacaEval 2.0``: a version written
    after a name is part of it, as the annotation writes it (a bare ``2.0`` only after a catalogued
    dataset or model: ``Theorem 2.1`` is none), and the longer name is no longer the catalogue
    entry."""
    last = doc[c.end - 1]
    if c.end >= len(doc) or not any(ch.isupper() for ch in last.text):
        return
    at = c.end
    glued = doc[at].text == "-" and not last.whitespace_ and not doc[at].whitespace_
    if glued:
        at += 1  # LLaVA-v1.5
    if at >= len(doc) or not (glued or last.whitespace_):
        return
    bare = not glued and _DOTTED.match(doc[at].text) and c.kb_id and c.label in ("Dataset", "Model")
    if not (_VERSION.match(doc[at].text) or bare):
        return
    if at + 1 < len(doc) and doc[at + 1].lower_ in _AFTER_A_VALUE:
        return
    c.end, c.kb_id = at + 1, ""


#: The decision's probability of Model above which a released model's catalogue name settles the
#: type: ``XLM-R`` (0.38 against Method's 0.60 in ``XLM-R and mBERT fine-tuned on English data``)
#: is a Model; a paper's own ``ERNIE`` framework (0.25) keeps the type its context gives.
_RELEASE_CALL = 0.3


def _released_model(group: list[Candidate]) -> bool:
    """``XLM-R``, ``GPT-4o``: a name of a released model in the catalogue (not an architecture
    family such as ResNet, which the guidelines type Method), not defined by the paper itself."""
    if any(c.source == "defined" for c in group):
        return False
    entries = (catalogue_entry(c.kb_id) for c in group if c.kb_id)
    return any(entry and entry["label"] == "Model" and entry.get("kind") != "method" for entry in entries)


def _a_metric(classes: list[str], p) -> bool:
    """The decision's likeliest type, if the name is one, is Metric."""
    return max((q, c) for q, c in zip(p, classes) if c != "none")[1] == "Metric"


def _score_like(token) -> bool:
    return token.like_num and not is_year(token.text)


class EntityRecognizer(LearnedCandidates, CatalogueCandidates, DefinedCandidates, NameCandidates,
                       IntroducedCandidates, PhraseCandidates, CandidateChoice, ContextTyping):
    def __init__(
        self,
        *,
        spans_key: str,
        catalogue_key: str,
        max_phrase_tokens: int,
        vocabulary: Vocabulary,
        learned_key: str = "kg_learned",
        learned_priority: float = 1.5,
        rule_phrases: bool = True,
        noun_phrases: bool = True,
        model: str = "",
        threshold: float = 0.6,
        choice_model: str = "",
        keep_agreed: bool = True,
        annotated_names: str = "",
        min_annotated: int = 3,
        min_annotated_share: float = 0.6,
    ) -> None:
        self.spans_key = spans_key
        self.catalogue_key = catalogue_key
        self.max_phrase_tokens = max_phrase_tokens
        self.vocab = vocabulary
        self.learned_key = learned_key
        self.learned_priority = learned_priority
        self.rule_phrases = rule_phrases
        self.noun_phrases = noun_phrases
        self.threshold = threshold
        self.keep_agreed = keep_agreed
        self.annotated_names = read_annotated_names(annotated_names) if annotated_names else {}
        self.min_annotated = min_annotated
        self.min_annotated_share = min_annotated_share
        path = model_path(model) if model else None
        self.decider = LinearModel.load(path) if path is not None and path.is_file() else None
        path = model_path(choice_model) if choice_model else None
        self.chooser = LinearModel.load(path) if path is not None and path.is_file() else None

    def __call__(self, doc: Doc) -> Doc:
        chosen, learned = self.choose(doc)
        if self.decider is not None:
            chosen = self._decide(doc, chosen, learned)
        spans = [
            Span(doc, c.start, c.end, label=c.label or "Method", kb_id=c.kb_id) for c in chosen
        ]
        doc.spans[self.spans_key] = spans
        return doc

    def choose(self, doc: Doc) -> tuple[list[Candidate], list[Candidate]]:
        """The candidates chosen (typed, not overlapping) and the learned ones."""
        candidates, learned = self.candidates(doc)
        if self.chooser is not None:
            rank_candidates(doc, candidates, learned, self.chooser, self.vocab)
        chosen = self._non_overlapping(doc, candidates)
        if self.noun_phrases:  # where no rule found anything: the decision weighs every noun phrase
            taken = {i for c in chosen for i in range(c.start, c.end)}
            free = [c for c in self._noun_phrases(doc) if taken.isdisjoint(range(c.start, c.end))
                    and not self._generic(doc, c)]
            chosen = sorted([*chosen, *free], key=lambda c: c.start)
        self._type_from_context(doc, chosen)
        for c in chosen:
            self._without_kind_word(doc, c)
        return chosen, learned

    def candidates(self, doc: Doc) -> tuple[list[Candidate], list[Candidate]]:
        """Every candidate of the rules and the recogniser but generic classes (overlapping),
        and the recogniser's own."""
        self._blocked: set[str] = set()
        self._texts = [t.text for t in doc]
        self._spaces = [" " if space else "" for space in doc.to_array("SPACY")]
        learned = list(self._learned(doc))
        candidates = [
            *self._catalogue(doc),
            *self._defined(doc),
            *self._names(doc),
            *self._before_dataset_heads(doc),
            *self._emphasized(doc),
            *self._introduced_phrases(doc),
            *(self._title_phrases(doc) if self.rule_phrases else ()),
            *(self._head_phrases(doc) if self.rule_phrases else ()),
        ]
        for c in [*candidates, *learned]:
            _with_dimension(doc, c)
            _with_version(doc, c)
        _label_as_learned(candidates, learned)
        _favour_whole_names(doc, candidates, learned)
        candidates = [c for c in [*candidates, *learned] if not self._generic(doc, c)]
        strengthen_around_catalogue(doc, candidates)
        return candidates, learned

    def _decide(self, doc: Doc, chosen: list[Candidate], learned: list[Candidate]) -> list[Candidate]:
        """The learned last word: per name, keep it (with the type it gives) or drop it."""
        kept = []
        learned_at = {(c.start, c.end): c.label for c in learned}
        groups = candidate_groups(doc, chosen)
        doubt = doc.user_data.setdefault(DOUBT, {})
        p_of: dict[int, list[float]] = {}
        for group in groups.values():
            p, dropped = self.verdict(doc, group, learned_at, set(groups))
            if dropped:
                continue
            none = self.decider.classes.index("none")
            for c in group:
                doubt[(c.start, c.end)] = float(p[none])
            p[none] = -1.0
            label = self._capitalised_kind(doc, group[0].start, group[0].end) or self.decider.classes[int(p.argmax())]
            if label != "Model" and "Model" in self.decider.classes \
                    and p[self.decider.classes.index("Model")] >= _RELEASE_CALL and _released_model(group):
                label = "Model"
            for c in group:
                c.label = label
                p_of[id(c)] = p
            kept += group
        kept.sort(key=lambda c: c.start)
        self._agree_in_lists(doc, kept, p_of, self.decider.classes)
        return kept

    def verdict(self, doc: Doc, group: list[Candidate], learned_at: dict[tuple[int, int], str | None],
                names: set[str]):
        """The decision's class probabilities for one name's candidates, and whether it drops the
        name (``names``: the name keys of every chosen candidate of the text)."""
        p = self.decider.probabilities(entity_features(doc, group, learned_at, self.vocab, names,
                                                       self.annotated_names or None))
        none = self.decider.classes.index("none")
        measured = p[none] < IN_TERMS_OF_THRESHOLD and _a_metric(self.decider.classes, p) and any(
            _measured_in_terms_of(doc, c) for c in group)
        dropped = p[none] >= self.threshold and not measured
        # a word coined where the paper names something stays, whatever the decision
        return p, dropped and not any(c.coined for c in group) and not self._agreed(group, learned_at) \
            and not any(_scores_a_number(doc, c) for c in group) and not self._annotated(doc, group)

    def _annotated(self, doc: Doc, group: list[Candidate]) -> bool:
        """A name of the field: the training annotation names it in at least ``min_annotated``
        abstracts, and in ``min_annotated_share`` of those that write it (``meta-learning``,
        ``regret``; :mod:`kg.train.annotated_names`); never an acronym. Measured in docs/quality.md."""
        key = term_key(doc[group[0].start:group[0].end].text)
        if key.startswith("^"):
            return False  # an acronym means what each paper defines (MI: mutual information, membership inference)
        found = self.annotated_names.get(key)
        return found is not None and found.annotated >= self.min_annotated \
            and found.annotated >= self.min_annotated_share * found.written

    def _agreed(self, group: list[Candidate], learned_at: dict[tuple[int, int], str | None]) -> bool:
        """Two independent readings agree: a catalogue entry the recogniser finds with the same extent
        and type (``BLEU`` in ``obtains BLEU 31.5``, where the decision alone doubts a name before a number)."""
        return self.keep_agreed and any(
            c.source == "catalogue" and learned_at.get((c.start, c.end)) == c.label for c in group)
