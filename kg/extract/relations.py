"""Relations between the entities of an abstract, decided by a learned classifier over entity pairs.

=============== ============================================ ==========================
predicate       meaning                                      subject -> object types
=============== ============================================ ==========================
compared_with   compared with, outperforms, matches          Method/Model -> Method/Model
extends         extends, generalises, is a variant of        Method/Model -> Method/Model
uses            uses, builds on, is trained on               Method/Model -> Method/Model/Dataset
evaluated_on    experiments or results on                    Method/Model -> Dataset
applied_to      addresses, is applied to                     Method/Model -> Task
measured_by     evaluated by a metric                        Method/Model/Dataset/Task -> Metric
=============== ============================================ ==========================

Candidates are the ordered pairs of entities of one sentence whose types fit a
predicate, plus the paper's proposed entity paired with the entities of every
sentence (``we evaluate on X`` is about the proposal even where it is not
named). Each candidate is described by :func:`pair_features`: the two types,
the words between, trigger words of each predicate (``outperforms``,
``evaluated on``, ``based on``), distance, order, whether the subject is
the proposal, and whether one name is a variant of the other (``RGIB-SSL``
of ``RGIB``). The candidates of one pair of names are decided together
(:func:`pair_bags`), as the annotation relates a pair once: a
:class:`~kg.extract.linear.LinearModel` trained on annotated abstracts
(``kg train-linear relations``) reads the features of all its sentences at once
and gives the pair one predicate or none.

A paper whose abstract names no proposed method or model but whose title does
(``kg_title_names``: ``VanillaNet: ...``) has that title name as its proposal, paired the same way.
A paper that proposes none studies one (``Convergence of Alternating Gradient Descent for ...``):
the method or model its title names (:func:`focus_subject`) is paired so too, its pairs marked
``a_focus`` for the classifier to weigh apart. A generic class (``large language model``, or
``LLM`` defined as one) is no relation's subject.

Relations are stored as character offsets (clean text) in ``doc._.kg_relations``:
``[(subj_start, subj_end, predicate, obj_start, obj_end, ev_start, ev_end), ...]``; those of a
title name in ``doc._.kg_title_relations``, its offsets into the title.
"""

from __future__ import annotations

import re

from collections.abc import Iterator
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.entities.component import DOUBT, doubt_tenths
from kg.extract.entities.features import share_level
from kg.extract.entities.shapes import is_name_like
from kg.extract.linear import LinearModel
from kg.extract.lexicons import term_key
from kg.extract.models import model_path, read_annotated_names
from kg.extract.sentences import sentence_words, spans_by_sentence
from kg.extract.title_names import title_proposal
from kg.extract.vocabulary import default_vocabulary, is_generic_class
from kg.ids import name_key

__all__ = ["PairBag", "RelationFinder", "focus_subject", "main_proposals", "pair_bags", "pair_candidates", "pair_features", "proposed_benchmark", "relation_subjects",
           "OBJECT_TYPES", "SUBJECT_TYPES"]

for _name in ("kg_relations", "kg_title_relations", "kg_title_names"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=[])

_ACTORS = ("Method", "Model")
SUBJECT_TYPES = {
    "compared_with": _ACTORS, "extends": _ACTORS, "uses": _ACTORS, "evaluated_on": _ACTORS,
    "applied_to": _ACTORS, "measured_by": ("Method", "Model", "Dataset", "Task"),
}
OBJECT_TYPES = {
    "compared_with": _ACTORS, "extends": _ACTORS, "uses": ("Method", "Model", "Dataset"),
    "evaluated_on": ("Dataset",), "applied_to": ("Task",), "measured_by": ("Metric",),
}
TRIGGERS = {
    "compare": {"outperform", "outperforms", "outperforming", "outperformed", "surpass", "surpasses",
                "surpassing", "beat", "beats", "versus", "vs", "vs.", "than", "rival", "rivals", "compared",
                "comparing", "compare", "exceeds", "exceed", "over", "matches", "match", "competitive"},
    "extend": {"extend", "extends", "extending", "extended", "generalize", "generalizes", "generalise",
               "generalises", "variant", "upon", "inspired", "special", "case", "family", "such", "e.g.",
               "including", "like", "class", "form", "version", "improves", "improving"},
    "use": {"use", "uses", "using", "used", "leverage", "leverages", "leveraging", "employ", "employs",
            "employing", "based", "built", "via", "adopt", "adopts", "utilize", "utilizes", "utilizing",
            "incorporate", "incorporates", "incorporating", "combining", "combines", "with", "through",
            "trained", "pretrained", "pre-trained", "backbone", "on", "integrates", "integrating"},
    "evaluate": {"evaluate", "evaluates", "evaluated", "evaluating", "evaluation", "evaluations",
                 "experiment", "experiments", "results", "benchmark", "benchmarks", "test", "tested",
                 "validate", "validated", "demonstrate", "demonstrates", "achieves", "achieve",
                 "achieving", "on", "across", "datasets", "dataset"},
    "apply": {"for", "to", "in", "applied", "apply", "applies", "tackle", "tackles", "address",
              "addresses", "solve", "solves", "solving", "task", "tasks", "problem", "problems"},
    "measure": {"terms", "measured", "measure", "metric", "metrics", "of", "by", "score", "improves",
                "improvement", "higher", "lower", "reduces", "achieves", "%"},
}
_WE = {"we", "our", "ours", "this"}
_VOCABULARY = default_vocabulary()


#: A verb right between two entities says how they relate (``X uses Y``, ``X outperforms Y``):
#: these readings stand whatever the classifier says.
_DIRECT = {
    "uses": {"uses", "use", "employs", "leverages", "adopts", "utilizes", "incorporates", "combines",
             "integrates", "exploits"},
    "compared_with": {"outperforms", "outperform", "surpasses", "surpass", "beats", "exceeds", "rivals"},
    "extends": {"extends", "generalizes", "generalises"},
}
_FILLERS = {"significantly", "consistently", "substantially", "also", "further", "directly", "the", "a", "an"}


def direct_predicate(doc: Doc, a: Span, b: Span) -> str | None:
    """``X uses Y``, ``X consistently outperforms the Y``: the predicate a verb between them states."""
    if not a.end <= b.start <= a.end + 4:
        return None
    words = [t.lower_ for t in doc[a.end:b.start] if t.lower_ not in _FILLERS]
    if len(words) != 1:
        return None
    return next((p for p, verbs in _DIRECT.items() if words[0] in verbs), None)


def _fits(subject: str, obj: str) -> bool:
    return any(subject in SUBJECT_TYPES[p] and obj in OBJECT_TYPES[p] for p in SUBJECT_TYPES)


def _bucket(n: int) -> str:
    return "0" if n <= 0 else "1" if n == 1 else "2" if n == 2 else "3-5" if n <= 5 else "6-10" if n <= 10 else ">10"


def main_proposals(proposed: list[Span], limit: int = 2, doc: Doc | None = None) -> list[Span]:
    """The paper's proposed methods or models (distinct names; at most ``limit``), else its
    first proposal of any type: the subjects of ``we ...`` sentences. Given ``doc``, a name
    written as one comes before a descriptive phrase (``a mask propagation framework, called
    MPVSS``: the results are MPVSS's, though the title says *Mask Propagation*), then the name
    the title carries and the abstract repeats: a paper proposing HPTR and, as a part of it,
    KNARPE reports HPTR's results."""
    mains: list[Span] = []
    for span in proposed:
        if span.label_ in _ACTORS and all(span.text.lower() != m.text.lower() for m in mains):
            mains.append(span)
    if doc is not None and len(mains) > 1:
        mains.sort(key=lambda span: -_prominence(doc, span, proposed))
    return mains[:limit] or proposed[:1]


def relation_subjects(doc: Doc, proposed: list[Span], limit: int = 1, tokenizer=None) -> list[Span]:
    """The proposals paired with the entities of every sentence: :func:`main_proposals`, or,
    when the abstract names no proposed method or model, the title's names (``kg_title_names``,
    spans of a Doc of the title; read with ``tokenizer``)."""
    mains = main_proposals(proposed, limit, doc)
    if tokenizer is not None and not any(m.label_ in _ACTORS for m in mains):
        title = title_proposal(doc, tokenizer)
        return [title] if title is not None else mains
    return mains


def focus_subject(doc: Doc, entities: list[Span]) -> Span | None:
    """The method or model a paper that proposes none studies: the one its title names (``Convergence
    of Alternating Gradient Descent for ...``), the most often named of them in the abstract; for
    an abstract without a title (a text list), the one it names most often, twice at least.
    Generic classes (``large language model``) are no one's focus.

    >>> import spacy
    >>> doc = spacy.blank("en")("Alternating gradient descent converges. We bound gradient descent too.")
    >>> doc._.kg_title = "Convergence of Alternating Gradient Descent"
    >>> focus_subject(doc, [Span(doc, 0, 3, "Method"), Span(doc, 9, 11, "Method")]).text
    'Alternating gradient descent'
    """
    title = doc._.kg_title.lower() if Doc.has_extension("kg_title") else ""
    counts: dict[str, int] = {}
    first: dict[str, Span] = {}
    for span in entities:
        name = span.text.lower()
        if span.label_ in _ACTORS and not is_generic_class(span.text):
            counts[name] = counts.get(name, 0) + 1
            first.setdefault(name, span)
    def most_named(names):  # the most often named, the first named of a tie
        return max(names, key=lambda name: (counts[name], -first[name].start), default=None)

    if not title:  # an abstract given without its title: the one it names most, if more than once
        name = most_named(counts)
        return first[name] if name is not None and counts[name] >= 2 else None
    in_title = [name for name in counts if re.search(rf"(?<!\w){re.escape(name)}(?:s|es)?(?!\w)", title)]
    # ``Convex Message Passing Algorithms``: the title's whole name, not the one inside it
    in_title = [name for name in in_title if not any(
        other != name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", other) for other in in_title)]
    if not in_title:
        return None
    return first[most_named(in_title)]


def _prominence(doc: Doc, span: Span, proposed: list[Span]) -> int:
    """How much the paper is about ``span``: written as a name, named in its title, and how
    often in its abstract."""
    text = span.text.lower()
    title = doc._.kg_title.lower() if Doc.has_extension("kg_title") else ""
    in_title = bool(title) and re.search(rf"(?<!\w){re.escape(text)}(?!\w)", title) is not None
    named = sum(p.text.lower() == text for p in proposed)
    return 1000 * is_name_like(span.text, _VOCABULARY) + 100 * in_title + named


def pair_candidates(doc: Doc, entities: list[Span], mains: list[Span]) -> Iterator[tuple[Span, Span, Span, bool]]:
    """(subject, object, sentence, virtual) for every pair worth a decision; ``virtual``:
    the subject is named elsewhere in the abstract: a proposal (``mains``), or a name that
    is a variant of the object (``robust MDP`` of ``MDP``, ``FedRo-L`` of ``FedRo``), which
    relates to it wherever the two are written."""
    variants = _variant_subjects(entities)
    mains_named = [(main, main.text.lower()) for main in mains]  # a span's text is joined at every read
    main_names = {name for _, name in mains_named}
    for sent, inside in spans_by_sentence(doc, entities):
        named = [(e, e.text.lower()) for e in inside]
        here = {name for _, name in named}
        for a, name_a in named:
            for b, name_b in named:
                if a is not b and name_a != name_b and _fits(a.label_, b.label_):
                    yield a, b, sent, False
        for main, name in mains_named:
            if name not in here:
                for b, name_b in named:
                    if _fits(main.label_, b.label_) and name_b not in main_names:
                        yield main, b, sent, True
        for b, name_b in named:
            for a, name_a in variants.get(name_b, ()):
                if name_a not in here | main_names:
                    yield a, b, sent, True


def _variant_subjects(entities: list[Span]) -> dict[str, list[tuple[Span, str]]]:
    """Object name (lower case) -> the first mention of each Method or Model name that is a
    variant of it (:func:`_adds_to_name`), with its name (lower case)."""
    first: dict[str, tuple[Span, str]] = {}
    for span in entities:
        if span.label_ in _ACTORS:
            text = span.text
            first.setdefault(text.lower(), (span, name_key(text)))
    found: dict[str, list[tuple[Span, str]]] = {}
    for name_a, (a, key_a) in first.items():
        for name_b, (b, key_b) in first.items():
            if a is not b and _adds_to_name(key_a, key_b):
                found.setdefault(name_b, []).append((a, name_a))
    return found


@dataclass
class PairBag:
    """Every sentence that pairs one subject name with one object name: the pair is decided
    once, on the features of all its sentences together, as the annotation gives it once."""
    subject: Span
    object: Span
    sentence: Span  # the evidence: the first sentence naming both, else the first naming the object
    features: list[str]
    direct: str | None  # the predicate a verb between the two names states (direct_predicate)


def pair_bags(doc: Doc, entities: list[Span], mains: list[Span], proposed: set[tuple[int, int]],
              focus: Span | None = None, annotated=None) -> list[PairBag]:
    """The candidate pairs of :func:`pair_candidates` grouped by their two names (lower case);
    ``focus`` (:func:`focus_subject`), when given, is paired as the proposals are and its pairs
    marked; ``annotated``, the annotated-names table, adds how the annotation relates each name."""
    mentions: dict[tuple[str, str, bool], list[tuple[Span, Span, Span, bool]]] = {}
    focus_name = focus.text.lower() if focus is not None else None
    for a, b, sent, virtual in pair_candidates(doc, entities, mains + ([focus] if focus is not None else [])):
        mentions.setdefault((a.text.lower(), b.text.lower(), a.doc is doc), []).append((a, b, sent, virtual))
    bags = []
    for found in mentions.values():
        features: set[str] = set()
        direct = None
        for a, b, sent, virtual in found:
            features.update(pair_features(doc, a, b, sent, virtual, proposed))
            verb = None if virtual else direct_predicate(doc, a, b)
            if direct is None and verb and a.label_ in SUBJECT_TYPES[verb] and b.label_ in OBJECT_TYPES[verb]:
                direct = verb
        local = [m for m in found if not m[3]]
        features.add(f"sentences={_bucket(len(found))}")
        features.add(f"local={_bucket(len(local))}")
        a, b, sent, _ = (local or found)[0]
        if a.text.lower() == focus_name:
            features.update(("a_focus", f"a_focus|{a.label_}>{b.label_}", f"a_focus|local={_bucket(len(local))}"))
        if annotated is not None:
            features.update(_annotation_features(a, b, annotated))
        bags.append(PairBag(a, b, sent, sorted(features), direct))
    return bags


def _annotation_features(a: Span, b: Span, annotated) -> list[str]:
    """How often the training annotation relates the object's name where it names it, and by
    which predicate most; how often the subject's: names annotated but seldom related are
    background (``deep learning``)."""
    feats = []
    found = annotated.get(term_key(b.text))
    if found is None:
        feats.append("b_related=none")
    else:
        level = share_level(found.as_object / found.annotated)
        feats.append(f"b_related={level}")
        if found.as_object:
            feats += [f"b_related_as={found.object_predicate}", f"b_related_as={found.object_predicate}|{level}"]
    found = annotated.get(term_key(a.text))
    feats.append("a_related=none" if found is None else f"a_related={share_level(found.as_subject / found.annotated)}")
    return feats


def pair_features(doc: Doc, a: Span, b: Span, sent: Span, virtual: bool,
                  proposed: set[tuple[int, int]]) -> list[str]:
    """The features of one candidate pair (subject ``a``, object ``b``) in ``sent``."""
    types = f"{a.label_}>{b.label_}"
    words = sentence_words(sent)
    feats = [f"types={types}", f"obj={b.label_}", f"subj={a.label_}"]
    between = _between(doc, a, b, sent, virtual)
    feats += ["virtual", f"virtual|{types}"] if virtual else _span_features(doc, a, b, between, types)
    if b.start > 0:
        feats.append(f"before_obj={doc[b.start - 1].lower_}")
        feats.append(f"before_obj={doc[b.start - 1].lower_}|{types}")
    feats += _trigger_features(between, words, virtual, types)
    feats += _sentence_features(doc, b, sent, words, virtual, proposed, types, in_title=a.doc is not doc)
    feats += _name_features(doc, a, b, proposed, types)
    return feats


def _between(doc: Doc, a: Span, b: Span, sent: Span, virtual: bool) -> list[str]:
    """The words a pair is read from: those between the two names, or, the subject being named
    elsewhere (``virtual``), those from the sentence start to the object."""
    if virtual:
        return [t.lower_ for t in doc[sent.start:b.start]]
    first, second = (a, b) if a.start < b.start else (b, a)
    return [t.lower_ for t in doc[first.end:second.start]]


def _span_features(doc: Doc, a: Span, b: Span, between: list[str], types: str) -> list[str]:
    """Order, distance and the words around and between two names of one sentence."""
    first, second = (a, b) if a.start < b.start else (b, a)
    order = "ab" if a.start < b.start else "ba"
    feats = [f"order={order}", f"order={order}|{types}", f"dist={_bucket(len(between))}",
             f"dist={_bucket(len(between))}|{types}"]
    if first.end < len(doc):
        feats.append(f"after1={doc[first.end].lower_}")
    if second.start > 0:
        feats.append(f"before2={doc[second.start - 1].lower_}|{types}")
    if len(between) <= 12:
        feats += [f"btw={w}" for w in set(between) if w.isalpha() or w in ",;(:"]
    if "," in between or "and" in between:
        feats.append(f"list|{types}")
    return feats


def _trigger_features(between: list[str], words: frozenset[str], virtual: bool, types: str) -> list[str]:
    """The predicates whose trigger words stand between the names or anywhere in the sentence."""
    feats = []
    for name, triggers in TRIGGERS.items():
        if triggers & set(between):
            feats += [f"trig_btw={name}", f"trig_btw={name}|{types}"]
        if triggers & words:
            feats.append(f"trig_sent={name}|{types}")
            if virtual:
                feats.append(f"virtual|trig_sent={name}|{types}")
    return feats


def _sentence_features(doc: Doc, b: Span, sent: Span, words: frozenset[str], virtual: bool,
                       proposed: set[tuple[int, int]], types: str, in_title: bool = False) -> list[str]:
    """Whether the sentence speaks of ``we``, stands before the proposal is named (a proposal
    named ``in_title`` is named before every sentence), and its verb governing the object."""
    feats = []
    if _WE & words:
        feats += ["sent_we", f"sent_we|{types}"] + ([f"virtual|sent_we|{types}"] if virtual else [])
    # a sentence before the proposal is first named tells of earlier work, not of the proposal
    first = min((start for start, _ in proposed), default=None)
    position = "after" if in_title else "none" if first is None else "before" if sent.end_char <= first else "after"
    feats += [f"sent_pos={position}", f"sent_pos={position}|{types}"]
    if virtual:
        feats.append(f"virtual|sent_pos={position}")
    verb = next((t.lower_ for t in reversed(doc[sent.start:b.start]) if t.pos_ == "VERB"), None)
    if verb is not None:  # evaluated on X, outperforms X, built on X: the verb governing the object
        feats += [f"verb_before_obj={verb}", f"verb_before_obj={verb}|{types}"]
    return feats


def _name_features(doc: Doc, a: Span, b: Span, proposed: set[tuple[int, int]], types: str) -> list[str]:
    """What the two names are: their head words, in the title, proposed, catalogued, generic."""
    feats = [f"obj_head={b[-1].lower_}|{types}", f"subj_head={a[-1].lower_}|{types}"]
    title = doc._.kg_title.lower() if Doc.has_extension("kg_title") else ""
    if title and b.text.lower() in title:
        feats.append(f"b_in_title|{types}")
    if a.doc is not doc or (a.start_char, a.end_char) in proposed:  # a title name is proposed
        feats += ["a_proposed", f"a_proposed|{types}"]
    if (b.start_char, b.end_char) in proposed:
        feats.append("b_proposed")
    if a.kb_id_:
        feats.append("a_catalogue")
    a_text = a.text
    if _VOCABULARY.is_generic_phrase(a_text) or _VOCABULARY.is_family(a_text) or is_generic_class(a_text, ()):
        feats += ["a_generic", f"a_generic|{types}"]
    if b.kb_id_:
        feats.append("b_catalogue")
    doubts = doc.user_data.get(DOUBT, {})
    for side, span in (("a", a), ("b", b)):
        if span.doc is doc and (span.start, span.end) in doubts:
            feats.append(f"{side}_doubt={doubt_tenths(doubts[(span.start, span.end)])}")
    return feats + _variant_features(a, b, types)


def _variant_features(a: Span, b: Span, types: str) -> list[str]:
    """One name a variant of the other: ``RGIB-SSL`` of ``RGIB``, ``TE-TNP`` of ``TNP``, and,
    name keys joining words by hyphens, ``robust MDP`` of ``MDP``."""
    key_a, key_b = name_key(a.text), name_key(b.text)
    if _adds_to_name(key_a, key_b):
        return [f"a_variant_of_b|{types}"]
    if _adds_to_name(key_b, key_a):
        return [f"b_variant_of_a|{types}"]
    return []


def _adds_to_name(key: str, of: str) -> bool:
    """The name key ``key`` is ``of`` with words or a hyphenated part added before or after it
    (``rgib-ssl`` of ``rgib``, ``robust-mdp`` of ``mdp``). Unlike
    :func:`kg.extract.entities.is_variant` (a name that starts with one of a set of names of
    three letters or more, then a hyphen), it looks at both ends and sets no minimum length.

    >>> _adds_to_name("robust-mdp", "mdp"), _adds_to_name("mdp", "robust-mdp"), _adds_to_name("mdps", "mdp")
    (True, False, False)
    """
    return key.startswith(of + "-") or key.endswith("-" + of)


def _long_forms(doc: Doc) -> dict[str, list[str]]:
    """Each short form the text defines -> its long forms (``kg_abbreviations``)."""
    text = doc.text  # joined from the tokens at every read: once per text
    found: dict[str, list[str]] = {}
    for short_start, short_end, long_start, long_end in doc._.kg_abbreviations:
        found.setdefault(text[short_start:short_end], []).append(text[long_start:long_end])
    return found


def _generic(doc: Doc, span: Span, long_forms: dict[str, list[str]]) -> bool:
    """A generic class (``large language model``, ``LLM`` defined as one) says nothing as the
    subject of a relation: what uses or outperforms is a method or a model. ``long_forms``:
    :func:`_long_forms` of ``doc``."""
    if span.doc is not doc:
        return False
    return is_generic_class(span.text, long_forms.get(span.text, []))


def proposed_benchmark(proposed: list[Span]) -> Span | None:
    """The dataset a benchmark paper proposes: its first proposal, when that is a dataset and it
    proposes no method or model (``We introduce Zorbench, a benchmark of ...``)."""
    if not proposed or any(p.label_ in _ACTORS for p in proposed) or proposed[0].label_ != "Dataset":
        return None
    return proposed[0]


def _models_on_the_benchmark(doc: Doc, entities: list[Span], proposed: list[Span], found: list[tuple]) -> list[tuple]:
    """A paper that proposes a dataset and no method or model evaluates the models it names on
    it (``We introduce Zorbench ... We evaluate GPT-4o and Llama-3-70B``): each Model is
    evaluated on the first proposed dataset, unless the decision related the two otherwise."""
    dataset = proposed_benchmark(proposed)
    if dataset is None:
        return []
    text = doc.text
    related = {frozenset((text[f[0]:f[1]].lower(), text[f[3]:f[4]].lower())) for f in found}
    seen = {dataset.text.lower()}
    added = []
    for model in entities:
        name = model.text.lower()
        if model.label_ != "Model" or name in seen:
            continue
        seen.add(name)
        if frozenset((name, dataset.text.lower())) not in related:
            added.append((model.start_char, model.end_char, "evaluated_on", dataset.start_char, dataset.end_char,
                          model.sent.start_char, model.sent.end_char))
    return added


@Language.factory(
    "kg_relations",
    assigns=["doc._.kg_relations"],
    requires=["doc.spans"],
    default_config={"spans_key": "kg_entities", "proposed_key": "kg_proposed", "model": "relations.npz",
                    "threshold": 0.6, "max_subjects": 1, "focus": True, "annotated_names": ""},
)
def make_relation_finder(nlp: Language, name: str, spans_key: str, proposed_key: str, model: str,
                         threshold: float, max_subjects: int, focus: bool, annotated_names: str):
    return RelationFinder(spans_key=spans_key, proposed_key=proposed_key, model=model, threshold=threshold,
                          max_subjects=max_subjects, focus=focus, tokenizer=nlp.tokenizer,
                          annotated_names=annotated_names)


class RelationFinder:
    def __init__(self, *, spans_key: str, proposed_key: str, model: str = "relations.npz",
                 threshold: float = 0.6, max_subjects: int = 1, focus: bool = True, tokenizer=None,
                 annotated_names: str = "") -> None:
        self.spans_key = spans_key
        # how the training annotation relates each name (kg train-linear names): features of a pair
        self.annotated_names = read_annotated_names(annotated_names) if annotated_names else {}
        self.tokenizer = tokenizer  # reads the title's names (none without it)
        self.proposed_key = proposed_key
        self.threshold = threshold
        self.max_subjects = max_subjects  # proposals paired with the entities of every sentence
        self.focus = focus  # a paper proposing no method or model: pair the one it studies likewise
        self.model_path = model_path(model)
        self._model: LinearModel | None = None

    @property
    def classifier(self) -> LinearModel:
        if self._model is None:
            if not self.model_path.is_file():
                raise ValueError(f"kg_relations: no model at {self.model_path} (train one: kg train-linear)")
            self._model = LinearModel.load(self.model_path)
        return self._model

    def bags(self, doc: Doc, annotated=None) -> list[PairBag]:
        """The pairs to decide: those of the proposals (:func:`relation_subjects`), or, when the
        paper proposes no method or model, of the one it studies (:func:`focus_subject`);
        ``annotated`` stands in for the annotated-names table (training leaves the abstract's own part out)."""
        entities = list(doc.spans.get(self.spans_key, []))
        proposed_spans = list(doc.spans.get(self.proposed_key, []))
        mains = relation_subjects(doc, proposed_spans, self.max_subjects, self.tokenizer)
        focus = None
        if self.focus and not any(m.label_ in _ACTORS or m.doc is not doc for m in mains):
            focus = focus_subject(doc, entities)
        proposed = {(p.start_char, p.end_char) for p in proposed_spans}
        return pair_bags(doc, entities, mains, proposed, focus, annotated or self.annotated_names or None)

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.spans_key, []))
        proposed_spans = list(doc.spans.get(self.proposed_key, []))
        classes = self.classifier.classes
        found, title_found = [], []
        long_forms = _long_forms(doc)
        for bag in self.bags(doc):
            if _generic(doc, bag.subject, long_forms):
                continue
            predicate = bag.direct
            if predicate is None:
                probabilities = self.classifier.probabilities(bag.features)
                if probabilities[classes.index("none")] >= self.threshold:
                    continue
                fitting = [(p, c) for p, c in zip(probabilities, classes)
                           if c != "none" and bag.subject.label_ in SUBJECT_TYPES[c] and bag.object.label_ in OBJECT_TYPES[c]]
                if not fitting:
                    continue
                predicate = max(fitting)[1]
            a, b, sent = bag.subject, bag.object, bag.sentence
            (found if a.doc is doc else title_found).append(
                (a.start_char, a.end_char, predicate, b.start_char, b.end_char, sent.start_char, sent.end_char))
        found += _models_on_the_benchmark(doc, entities, proposed_spans, found)
        doc._.kg_relations = sorted(found)
        doc._.kg_title_relations = sorted(title_found)
        return doc
