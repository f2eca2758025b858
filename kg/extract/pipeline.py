"""Run the spaCy pipeline over papers and turn its annotations into :class:`Extraction` records.

The text each component sees is the abstract cleaned of LaTeX and Markdown
(:mod:`kg.extract.clean`); every offset is mapped back to the abstract as stored.

Examples
--------
>>> from kg.types import Paper, Source
>>> nlp = load_pipeline()
>>> paper = Paper(id="p", abstract="We propose Zorblat, a novel framework. Zorblat outperforms BERT on SQuAD.", source=Source("x", 0))
>>> record = next(extract_papers([paper], nlp))
>>> [(e.name, e.type, e.proposed) for e in record.entities][:1]
[('Zorblat', 'Method', True)]
"""

from __future__ import annotations

import configparser
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import product
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import registry
from thinc.api import ConfigValidationError

from kg.extract import (  # noqa: F401  (registrations)
    abbreviations, cleaner, entities, learned, pos, proposals, relations, results, sentences, title_names, tokenizer,
)
from kg.extract.clean import CleanText, clean_text, find_urls
from kg.extract.lexicons import catalogue_ids_of
from kg.extract.mentions import display_name, group_spans
from kg.extract.relations import OBJECT_TYPES
from kg.extract.title_names import TITLE
from kg.extract.cleaner import MAX_ABSTRACT_CHARS
from kg.ids import name_key
from kg.types import Entity, Extraction, Mention, Paper, Relation, Result

__all__ = [
    "DEFAULT_CONFIG", "MAX_ABSTRACT_CHARS", "PipelineConfigError", "as_phrases", "load_pipeline", "extract_papers",
    "to_extraction", "display_name",
]

DEFAULT_CONFIG = Path(__file__).with_name("default.cfg")
_OWN_COMPONENTS = ("kg_catalogue", "kg_catalogue_exact", "kg_learned_entities")


@registry.readers("kg.catalogue_patterns.v1")
def catalogue_patterns(case: str = "all") -> list[dict]:
    """Span-ruler patterns of the shipped catalogues (``kg/extract/lexicons``).

    ``case="insensitive"``: phrase patterns for a ruler matching LOWER, token patterns of
    words and ``IN`` lists written out as phrases (:func:`as_phrases`): a token pattern is
    tried at every token of every text, a phrase is looked up; ``case="exact"``: exact-text
    token patterns turned into phrases for a ruler matching ORTH; ``"all"``: every pattern
    as shipped.
    """
    from kg.extract.lexicons import patterns

    if case == "all":
        return list(patterns())
    insensitive, exact = _patterns_by_case()
    return list(exact if case == "exact" else insensitive)


@lru_cache(maxsize=1)
def _patterns_by_case() -> tuple[tuple[dict, ...], tuple[dict, ...]]:
    """The shipped patterns split once per process for the two rulers (each asks for its
    half): tokenising the exact phrases costs a tokenizer and a pass over every pattern."""
    from kg.extract.lexicons import patterns

    insensitive, exact = [], []
    split = spacy.blank("en").tokenizer
    for pattern in patterns():
        tokens = pattern["pattern"]
        is_exact = isinstance(tokens, list) and all(set(t) == {"ORTH"} for t in tokens)
        if is_exact:
            phrase = " ".join(t["ORTH"] for t in tokens)
            if [t.text for t in split(phrase)] == [t["ORTH"] for t in tokens]:
                pattern = {**pattern, "pattern": phrase}
            exact.append(pattern)
        else:
            insensitive += as_phrases(pattern) or [pattern]
    return tuple(insensitive), tuple(exact)


def as_phrases(pattern: dict) -> list[dict] | None:
    """A token pattern of one ``LOWER`` (or lower-case ``ORTH``) word or ``IN`` list per token,
    written out as the phrases it matches (tokens joined by spaces: a phrase matcher compares
    tokens, not the spaces between them); None for any other pattern.

    >>> [p["pattern"] for p in as_phrases({"label": "Metric", "pattern": [
    ...     {"LOWER": "hit"}, {"ORTH": "@"}, {"LOWER": {"IN": ["1", "k"]}}]})]
    ['hit @ 1', 'hit @ k']
    """
    tokens = pattern["pattern"]
    if not isinstance(tokens, list) or not tokens:
        return None
    choices = []
    for token in tokens:
        if len(token) != 1:
            return None
        (attr, value), = token.items()
        words = value["IN"] if isinstance(value, dict) and set(value) == {"IN"} else [value]
        if attr not in ("LOWER", "ORTH") or not all(isinstance(w, str) and w == w.lower() for w in words):
            return None
        choices.append(words)
    return [{**pattern, "pattern": " ".join(words)} for words in product(*choices)]


def load_pipeline(config: str | Path | None = None, *, overrides: dict | None = None) -> Language:
    """Build the extraction pipeline from a config file (default: ``default.cfg``)."""
    return _load(str(config or DEFAULT_CONFIG), tuple(sorted((overrides or {}).items())))


class PipelineConfigError(ValueError):
    """A pipeline config (``--config``) that cannot be read, or whose settings do not fit."""


@lru_cache(maxsize=4)
def _load(config_path: str, overrides: tuple) -> Language:
    try:
        config = spacy.util.load_config(config_path, overrides=dict(overrides), interpolate=False)
        nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    except (configparser.Error, ConfigValidationError) as error:
        reason = " ".join(str(error).split())
        raise PipelineConfigError(f"{config_path} is not a usable pipeline config: {reason}") from error
    own = [name for name in nlp.pipe_names if name in _OWN_COMPONENTS]
    with nlp.select_pipes(enable=own):
        nlp.initialize()
    return nlp


def extract_papers(papers: Iterable[Paper], nlp: Language, *, batch_size: int = 64) -> Iterator[Extraction]:
    """Extract entities, relations, results and code URLs from each paper, in input order.

    One process; :func:`kg.extract.runner.extract_all` spreads the work over several."""

    if "kg_clean" not in nlp.pipe_names:
        raise ValueError("the pipeline must start with kg_clean (see kg/extract/default.cfg)")

    def docs():
        for paper in papers:
            doc = nlp.make_doc(paper.abstract[:MAX_ABSTRACT_CHARS])
            doc._.kg_title = paper.title or ""  # the title is the paper's, not the text's
            yield doc, paper

    for doc, paper in nlp.pipe(docs(), as_tuples=True, batch_size=batch_size):
        yield to_extraction(doc, paper, doc._.kg_clean)


def _without_sentence_capital(span: Span) -> str:
    """``Talking head generation`` opening a sentence is named ``talking head generation``;
    proper nouns and names keep their capital (``Bayesian optimization``, ``GPT models``,
    ``Fréchet regression``: a word with an accented letter is a person's name)."""
    text, first = span.text, span[0]
    if (
        len(span) > 1
        and first.i == span.sent.start
        and first.is_title
        and first.is_ascii
        and first.tag_ not in ("NNP", "NNPS")
        and not first.lower_.endswith(("ian", "ean"))
        and all(t.is_lower for t in span[1:] if t.is_alpha)
    ):
        return text[:1].lower() + text[1:]
    return text


def to_extraction(doc: Doc, paper: Paper, clean: CleanText) -> Extraction:
    spans = list(doc.spans.get("kg_entities", []))
    proposed = {(s.start_char, s.end_char) for s in doc.spans.get("kg_proposed", [])}
    entities_out, index_of_span = _entities(group_spans(doc, spans), proposed, paper, clean)
    for entity in _title_entities(doc, paper):  # keyed as the components mark offsets into the title
        index_of_span[(TITLE, entity.mentions[0].start, entity.mentions[0].end)] = len(entities_out)
        entities_out.append(entity)
    relations_out = _relations(doc._.kg_relations, index_of_span, clean)
    relations_out += _relations(doc._.kg_title_relations, index_of_span, clean, in_title=True)
    results_out = [_result(found, index_of_span, clean) for found in doc._.kg_results]
    _type_as_related(entities_out, relations_out, results_out)
    entities_out, relations_out = _split_slashed_names(entities_out, relations_out)
    code_urls = list(dict.fromkeys([*paper.code_urls, *find_urls(paper.abstract)]))
    return Extraction(paper, entities_out, _unique(relations_out), results_out, code_urls)


#: A result's subject and baseline (the types kg.schema's result edges admit; extraction does not
#: import the graph's schema, and the cache's fingerprint covers what it imports).
_ACTORS = ("Method", "Model")


def _type_as_related(found: list[Entity], stated: list[Relation], reported: list[Result]) -> None:
    """A name its mentions type two ways (a Task in one sentence, a Method in the next) takes the
    type its relations require where they require one: the object of ``applied_to`` is a Task, as
    the mention the relation was found on is. Catalogued names keep theirs, and so do names that
    results need as another type (measured: typed F1 dev 0.669 -> 0.672; docs/quality.md)."""
    held: dict[int, set[str]] = {}
    for r in reported:
        for index, kinds in ((r.subject, _ACTORS), (r.baseline, _ACTORS), (r.dataset, ("Dataset",)),
                             (r.task, ("Task",)), (r.metric_entity, ("Metric",))):
            if index is not None:
                held.setdefault(index, set()).update(kinds)
    wanted: dict[int, Counter] = {}
    for relation in stated:
        kinds = OBJECT_TYPES[relation.predicate]
        if len(kinds) == 1 and found[relation.object].type not in kinds:
            wanted.setdefault(relation.object, Counter())[kinds[0]] += 1
    for index, kinds in wanted.items():
        entity, kind = found[index], kinds.most_common(1)[0][0]
        if entity.catalogue_id is None and kind in held.get(index, {kind}):
            entity.type = kind


def _entities(groups: list[tuple[list[Span], set[tuple[int, int]]]], proposed: set[tuple[int, int]],
              paper: Paper, clean: CleanText) -> tuple[list[Entity], dict[tuple, int]]:
    """One entity per group of spans (none for a name without a key), and the entity index of each span."""
    entities_out: list[Entity] = []
    index_of_span: dict[tuple, int] = {}
    for members, long_forms in groups:
        is_proposed = any((s.start_char, s.end_char) in proposed for s in members)
        label = _entity_type(members, proposed, is_proposed)
        names = [display_name(_without_sentence_capital(s), proper=label == "Dataset") for s in members]
        name, key = _entity_name(members, names, long_forms, is_proposed)
        if not key:
            continue
        mentions = []
        for span in sorted(members, key=lambda s: s.start_char):
            start, end = clean.raw_span(span.start_char, span.end_char)
            mentions.append(Mention(paper.abstract[start:end], start, end))
            index_of_span[(span.start_char, span.end_char)] = len(entities_out)
        entities_out.append(
            Entity(
                name=name,
                type=label,  # type: ignore[arg-type]
                key=key,
                mentions=mentions,
                proposed=is_proposed,
                aliases=sorted({n for n in names if n != name}),
                catalogue_id=_catalogue_id(members, key, name),
            )
        )
    return entities_out, index_of_span


#: ``CIFAR-10/100``, ``ImageNet-1K/21K``, ``GPT-3/4``, ``LLaMA-1/-2``, ``LLaMA-V1/V2``: datasets or
#: models written as one name, the others' numbers after slashes, written alike (not ``ViT-B/16``
#: nor ``SoViT-400m/14``: a patch size after the slash).
_SLASHED_NAME = re.compile(r"^(?P<base>.*(?:[A-Za-z][-_ ]?|\d[-_ ]))(?P<first>(?P<v>[Vv]?)\d+(?:\.\d+)?(?P<s>[A-Za-z]?))"
                           r"(?P<more>(?:/-?(?P=v)\d+(?:\.\d+)?(?P=s))+)$")


def _split_slashed_names(found: list[Entity], stated: list[Relation]) -> tuple[list[Entity], list[Relation]]:
    """``CIFAR-10/100`` names CIFAR-10 and CIFAR-100, ``LLaMA-1/-2`` LLaMA-1 and LLaMA-2 (as the
    annotation does): the first keeps the entity's place (results point to it), each other is one
    more entity with its mentions and relations."""
    found, stated = list(found), list(stated)
    for i, entity in enumerate(list(found)):
        match = _SLASHED_NAME.match(entity.name) if entity.type in ("Dataset", "Model") else None
        if match is None:
            continue
        base = match["base"]
        names = [base + match["first"], *(base + n.lstrip("-") for n in match["more"].split("/")[1:])]
        own = [r for r in stated if i in (r.subject, r.object)]
        for n, name in enumerate(names):
            split = Entity(name=name, type=entity.type, key=name_key(name), mentions=entity.mentions,
                           proposed=entity.proposed, aliases=sorted({*entity.aliases, entity.name}),
                           catalogue_id=_only_catalogue_id(name, entity.type))
            if n == 0:
                found[i] = split
                continue
            j = len(found)
            found.append(split)
            stated += [Relation(j if r.subject == i else r.subject, r.predicate, j if r.object == i else r.object,
                                r.start, r.end) for r in own]
    return found, stated


def _only_catalogue_id(name: str, label: str) -> str | None:
    """The catalogue id of ``label`` that ``name`` names, if it names exactly one."""
    ids = catalogue_ids_of(name, label)
    return next(iter(ids)) if len(ids) == 1 else None


def _title_entities(doc: Doc, paper: Paper) -> list[Entity]:
    """The proposed names only the title states (``kg_title_names``), each with its one mention there."""
    out = []
    for start, end, label in doc._.kg_title_names:
        text = (paper.title or "")[start:end]
        name = display_name(clean_text(text).text)  # ``E$^2$GAN`` is named ``E²GAN``
        key = name_key(name)
        if key:
            out.append(Entity(name=name, type=label, key=key, mentions=[Mention(text, start, end, "title")],
                              proposed=True))
    return out


def _entity_type(members: list[Span], proposed: set[tuple[int, int]], is_proposed: bool) -> str:
    """The type of a proposed mention, else of a catalogued one, else the most common."""
    label = next((s.label_ for s in members if s.kb_id_), None)
    if is_proposed:
        label = next(s.label_ for s in members if (s.start_char, s.end_char) in proposed)
    return label or Counter(s.label_ for s in members).most_common(1)[0][0]


def _entity_name(members: list[Span], names: list[str], long_forms: set[tuple[int, int]],
                 is_proposed: bool) -> tuple[str, str]:
    """(name, key): the short form names a proposal or an entity without a long form, else the long
    form does; the key is the long form's, so an acronym and its expansion meet across papers."""
    short = [n for s, n in zip(members, names) if (s.start_char, s.end_char) not in long_forms]
    long = [n for s, n in zip(members, names) if (s.start_char, s.end_char) in long_forms]
    name = (short[0] if (is_proposed or not long) and short else long[0]) if long else names[0]
    key = name_key(long[0]) if long else name_key(name)
    return name, key


def _catalogue_id(members: list[Span], key: str, name: str) -> str | None:
    """The catalogue id of a mention that names the entity itself (not of a part of its name)."""
    return next((s.kb_id_ for s in members if s.kb_id_ and name_key(display_name(s.text)) in (key, name_key(name))), None)


def _relations(found: list[tuple], index_of_span: dict[tuple, int], clean: CleanText,
               in_title: bool = False) -> list[Relation]:
    """Relations between two distinct entities kept, evidence mapped to the stored text
    (``in_title``: the subjects' offsets are into the title)."""
    relations_out = []
    for s_start, s_end, predicate, o_start, o_end, e_start, e_end in found:
        subject = index_of_span.get((TITLE, s_start, s_end) if in_title else (s_start, s_end))
        obj = index_of_span.get((o_start, o_end))
        if subject is None or obj is None or subject == obj:
            continue
        start, end = clean.raw_span(e_start, e_end)
        relations_out.append(Relation(subject, predicate, obj, start, end))
    return relations_out


def _result(found: dict, index_of_span: dict[tuple, int], clean: CleanText) -> Result:
    """A found result with its offsets in the stored text and its entities as indexes."""
    start, end = clean.raw_span(found["start"], found["end"])
    sentence_start, sentence_end = clean.raw_span(*found["sentence"])

    def entity(key: str) -> int | None:
        return index_of_span.get(found[key]) if found.get(key) else None

    return Result(
        metric=found["metric"],
        value=found["value"],
        start=start,
        end=end,
        subject=entity("subject"),
        dataset=entity("dataset"),
        baseline=entity("baseline"),
        task=entity("task"),
        metric_entity=entity("metric_entity"),
        number=found["number"],
        unit=found["unit"],
        delta=found["delta"],
        direction=found["direction"],
        setting=found["setting"],
        sentence_start=sentence_start,
        sentence_end=sentence_end,
    )


def _unique(found: list[Relation]) -> list[Relation]:
    seen: set[tuple] = set()
    out = []
    for r in found:
        if (r.subject, r.predicate, r.object) not in seen:
            seen.add((r.subject, r.predicate, r.object))
            out.append(r)
    return out
