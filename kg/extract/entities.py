"""Entity recognition by catalogue, acronym definition, name shape and head noun.

Candidates, strongest first:
1. catalogue matches (the ``span_ruler`` spans in ``catalogue_key``), with their ids;
2. acronyms and their long forms defined in the text (``doc._.kg_abbreviations``);
3. name-shaped tokens: ``AFLOW``, ``GNN-Diff``, ``GritLM-8x7B``, ``ComposableART``,
   with a model size kept (``OPT (30B)`` -> ``OPT-30B``);
4. Title Case phrases mid-sentence (``Monte Carlo Tree Search``);
5. lower-case noun phrases ending in a head noun of a type (``node classification``).

Types come from the catalogue, else the long form's head, else context
(``X dataset``, a list shared with a known dataset, a model size), else Method.
Overlaps keep the stronger, then the longer candidate.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from kg.extract.abbreviations import is_short_form
from kg.extract.lexicons import term_frequency
from kg.extract.linear import LinearModel
from kg.extract.models import model_path
from kg.extract.vocabulary import Vocabulary
from kg.ids import name_key, singular_name

__all__ = ["EntityRecognizer", "candidate_groups", "emphasized_spans", "entity_features", "is_name_like",
           "type_of_phrase"]


SIZE = re.compile(r"^\d+(?:\.\d+)?[BMKT]$|^\d+x\d+(?:\.\d+)?[BM]$", re.IGNORECASE)
_CITATION_KEY = re.compile(r"^[a-z_]+(?:19|20)\d\d[a-z_]*$")  # he2016deep, from LaTeX sources
_NAME_SHAPE = re.compile(r"[A-Z].*[A-Z]|[a-z][A-Z]|[A-Za-z]\d|^[A-Z][a-z]+-?\d")
_LIST_GLUE = {",", "and", "or", "&", "/", ";"}
_TECHNIQUE_HEADS = {"generation", "prediction", "decoding", "inference", "sampling", "search", "learning", "control"}
_PHRASE_FOLLOWERS = {
    "task", "tasks", "experiment", "experiments", "benchmark", "benchmarks", "dataset",
    "datasets", "performance", "result", "results", "problem", "problems", "setting",
    "settings", "accuracy", "capability", "capabilities", "model", "models", "method", "methods",
}
_KIND_WORDS = {"task": "Task", "metric": "Metric"}
_KIND_AFTER = {"metric": "Metric", "metrics": "Metric", "score": "Metric", "scores": "Metric",
               "task": "Task", "tasks": "Task"}
_KIND_ENDINGS = {
    "Task": {"task", "tasks", "problem", "problems"},
    "Dataset": {"dataset", "datasets", "benchmark", "benchmarks", "corpus"},
    "Metric": {"metric", "metrics"},
}
_NOT_IN_NAMES = set("()[]{}=≠<>|_^√")  # brackets, and formulas: "VDS≠0", "UO2|U", "V_T", "R^n"
_FORMULA = set("=≠<>|_^√{}−")
_RELATIONAL_ENDINGS = ("ic", "ical", "ive", "ary", "ar", "ual", "ional", "ural", "tial")
#: The two words before a name the paper introduces (``our proposed X``); proposals read them too.
OUR_NEW = (["our", "proposed"], ["our", "resulting"], ["our", "new"])
_EVALUATION_WORDS = {
    "experiment", "experiments", "evaluate", "evaluated", "evaluation", "evaluations",
    "benchmark", "benchmarks", "dataset", "datasets", "results", "tested", "test", "validate",
}

PRIORITY_CATALOGUE, PRIORITY_DEFINED, PRIORITY_NAME, PRIORITY_TITLE, PRIORITY_PHRASE = 4, 3, 2, 1, 0


_SOURCES = {PRIORITY_CATALOGUE: "catalogue", PRIORITY_DEFINED: "defined", PRIORITY_NAME: "name",
            PRIORITY_TITLE: "title", PRIORITY_PHRASE: "phrase"}


@dataclass
class Candidate:
    start: int  # token indices
    end: int
    label: str | None
    priority: float
    kb_id: str = ""
    source: str = ""
    coined: bool = False  # a word the field has not used, where a paper names something (``dubbed X``)

    def __post_init__(self) -> None:
        self.source = self.source or _SOURCES.get(self.priority, "other")  # type: ignore[call-overload]


def _names_entry(text: str, catalogue_id: str) -> bool:
    """``text`` is the name or an alias of the catalogue entry (by name key)."""
    from kg.extract.lexicons import catalogue_entry

    entry = catalogue_entry(catalogue_id)
    if entry is None:
        return False
    key = name_key(text)
    return any(name_key(n) == key for n in (entry["name"], *entry["aliases"]))


def _is_measurement(token: Token) -> bool:
    """A decimal or percentage (``5.17``, ``31.5%``), never a version number (``Llama 2``)."""
    return token.like_num and ("." in token.text or "," in token.text) or token.text in ("%",)


def is_name_like(text: str, vocabulary: Vocabulary) -> bool:
    """A name by its shape: several capitals, an inner capital, or letters joined to digits."""
    if text in vocabulary.not_names or text.rstrip("s") in vocabulary.not_names:
        return False
    if not text[:1].isalpha() or sum(c.isalpha() for c in text) < 2:
        return False
    if text.lower().startswith("non-") or "://" in text or _CITATION_KEY.match(text):
        return False
    return bool(_NAME_SHAPE.search(text))


def _is_degree(token: Token) -> bool:
    """A word saying how much or how good, not what is measured: ``higher``, ``reduced``,
    ``noticeable``; a relational adjective stays (``scientific accuracy``)."""
    if token.whitespace_ == "":
        return False  # a hyphenated compound: top-1 accuracy
    if token.tag_ == "JJ":
        return not token.lower_.endswith(_RELATIONAL_ENDINGS)
    return token.tag_ in ("JJR", "JJS", "RBR", "RBS", "RB", "VBN", "VBG")


def _is_adjective(token: Token, vocabulary: Vocabulary) -> bool:
    if token.pos_ == "ADJ" or token.tag_ in ("JJ", "VBN", "VBG"):
        return token.lower_ not in ("modeling", "modelling", "learning", "answering")
    return token.pos_ == "PROPN" and token.lower_.endswith(vocabulary.adjective_endings)


def type_of_phrase(span: Span, vocabulary: Vocabulary) -> str | None:
    """The type a descriptive phrase names, read off its head (last) word and modifiers."""
    words = [t for t in span if not t.is_punct]
    if not words:
        return None
    head = words[-1].lower_
    lemma = singular_name(head)
    if head in vocabulary.dataset_heads or lemma in vocabulary.dataset_heads:
        return "Dataset"
    if head in vocabulary.metric_heads or lemma in vocabulary.metric_heads:
        return "Metric"
    if head in vocabulary.task_heads or lemma in vocabulary.task_heads:
        modifiers = words[:-1]
        if lemma in _TECHNIQUE_HEADS and modifiers and _is_adjective(modifiers[-1], vocabulary):
            return "Method"  # speculative decoding, conformal prediction, augmented generation
        return "Task"
    if head in vocabulary.method_heads or lemma in vocabulary.method_heads:
        return "Method"
    return None


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
        "model": "entities.npz",
        "threshold": 0.6,
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
    model: str,
    threshold: float,
):
    return EntityRecognizer(
        spans_key=spans_key,
        catalogue_key=catalogue_key,
        max_phrase_tokens=max_phrase_tokens,
        vocabulary=vocabulary,
        learned_key=learned_key,
        learned_priority=learned_priority,
        rule_phrases=rule_phrases,
        model=model,
        threshold=threshold,
    )


class EntityRecognizer:
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
        model: str = "",
        threshold: float = 0.6,
    ) -> None:
        self.spans_key = spans_key
        self.catalogue_key = catalogue_key
        self.max_phrase_tokens = max_phrase_tokens
        self.vocab = vocabulary
        self.learned_key = learned_key
        self.learned_priority = learned_priority
        self.rule_phrases = rule_phrases
        self.threshold = threshold
        path = model_path(model) if model else None
        self.decider = LinearModel.load(path) if path is not None and path.is_file() else None

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
        """The candidates the rules choose (typed, not overlapping) and the learned ones."""
        self._blocked: set[str] = set()
        self._texts = [t.text for t in doc]
        self._spaces = [t.whitespace_ for t in doc]
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
        _label_as_learned(candidates, learned)
        _favour_whole_emphasis(doc, candidates, learned)
        candidates = [c for c in [*candidates, *learned] if not self._generic(doc, c)]
        chosen = self._non_overlapping(doc, candidates)
        self._type_from_context(doc, chosen)
        for c in chosen:
            self._without_kind_word(doc, c)
        return chosen, learned

    # -- candidates ---------------------------------------------------------------------
    def _learned(self, doc: Doc):
        for span in doc.spans.get(self.learned_key, []):
            if any(t.text == "," or t.tag_ == "CC" for t in span[1:-1]):
                continue  # "WinoBias and Winogender benchmarks": a list, its parts are the names
            if span.text.count("(") != span.text.count(")") or span.text.count("[") != span.text.count("]"):
                continue  # "KV) cache": the recogniser cut across brackets
            if any(c in span.text for c in _FORMULA) or _CITATION_KEY.match(span.text):
                continue  # "V1−V2ln((o2ν¯2κ)...": a formula, not a name
            end = span.end
            while end - span.start > 1 and _is_measurement(doc[end - 1]):
                end -= 1  # "FID 5.17": the value is not part of the name
            yield Candidate(span.start, end, span.label_, self.learned_priority, source="learned")

    def _emphasized(self, doc: Doc):
        """Terms the authors set in italics or bold (``we introduce *topological parallax*``):
        a paper emphasises the names it coins; the learned decision says which are names."""
        for span in emphasized_spans(doc):
            if span[-1].pos_ in ("NOUN", "PROPN") or is_name_like(span.text, self.vocab):
                yield Candidate(span.start, span.end, type_of_phrase(span, self.vocab), PRIORITY_TITLE,
                                source="emphasis")

    def _introduced_phrases(self, doc: Doc):
        """The noun phrase a paper introduces, whatever its case: ``we introduce mixed-play``,
        ``a method called achievement distillation``, ``we propose a weight-momentum joint
        shrinking method``; the learned decision says which are names."""
        for token in doc[:-1]:
            word = token.lower_
            slot = word in self.vocab.naming_words or (
                word in self.vocab.propose_verbs and token.tag_ in ("VBP", "VBZ", "VBD", "VB"))
            if not slot:
                continue
            start, end = self._introduced_at(doc, token.i + 1)
            if self._is_kind_only(doc[start:end]) and end + 1 < len(doc) and doc[end].text == ",":
                start, end = self._introduced_at(doc, end + 1)  # a novel architecture, Tandem transformers
            if end - start > 1 and self._is_kind_only(doc[end - 1:end]) and not (
                    doc[end - 2].pos_ == "ADJ" and doc[end - 2].text.islower()):
                end -= 1  # a weight-momentum joint shrinking method
            if end > start and not self._is_kind_only(doc[start:end]):
                yield Candidate(start, end, type_of_phrase(doc[start:end], self.vocab), PRIORITY_TITLE,
                                source="introduced")

    def _introduced_at(self, doc: Doc, start: int) -> tuple[int, int]:
        """The noun phrase from ``start``, without its article and generic words (``a novel``)."""
        while start < len(doc) and (doc[start].lower_ in self.vocab.generic_modifiers
                                    or doc[start].tag_ in ("DT", "PRP$")):
            start += 1
        end = start
        while end < len(doc) and end - start <= self.max_phrase_tokens and self._in_introduced(doc, end):
            end += 1
        while end > start and not (doc[end - 1].pos_ in ("NOUN", "PROPN") or doc[end - 1].tag_ == "VBG"):
            end -= 1
        return (start, end) if end - start <= self.max_phrase_tokens + 1 else (start, start)

    def _in_introduced(self, doc: Doc, i: int) -> bool:
        """A word of an introduced noun phrase: a noun, adjective or participle, or a joining hyphen."""
        token = doc[i]
        if token.text in ("-", "+") and token.whitespace_ == "" and i > 0 and doc[i - 1].whitespace_ == "":
            return True
        if token.is_punct or token.is_stop or token.like_num:
            return False
        return token.pos_ in ("NOUN", "PROPN", "ADJ") or token.tag_ in ("VBG", "VBN")

    def _is_kind_only(self, span: Span) -> bool:
        """``a framework``, ``an efficient method``: a kind word and generic words, no name."""
        return all(t.lower_ in self.vocab.generic_heads or t.lower_ in self.vocab.generic_modifiers
                   or singular_name(t.lower_) in self.vocab.generic_heads for t in span)

    def _redefined(self, doc: Doc) -> set[str]:
        """Catalogue acronyms the text defines as something else: ``SAM`` for sharpness-aware
        minimization is not the catalogue's Segment Anything Model, anywhere in the text."""
        out = set()
        at = self._catalogue_at(doc)
        for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
            match = at.get((s_start, s_end))
            if match is not None and not _names_entry(doc.text[l_start:l_end], match.id_):
                out.add(match.text)
        return out

    def _catalogue_at(self, doc: Doc) -> dict[tuple[int, int], Span]:
        """Catalogue matches by their character offsets."""
        return {(m.start_char, m.end_char): m for m in doc.spans.get(self.catalogue_key, [])}

    def _catalogue(self, doc: Doc):
        redefined = self._redefined(doc)
        for span in doc.spans.get(self.catalogue_key, []):
            if span.text in redefined:
                continue
            start, end = self._whole_glued_name(doc, span.start, span.end)
            changed = (start, end) != (span.start, span.end)
            if span.label_ == "Model":
                end, sized = self._with_size(doc, self._with_variant(doc, end))
                changed = changed or sized or end != span.end
            yield Candidate(start, end, span.label_, PRIORITY_CATALOGUE, "" if changed else span.id_)

    def _before_dataset_heads(self, doc: Doc):
        """``the Winogender benchmark``, ``WinoBias and Winogender benchmarks``, ``the Long Range
        Arena benchmark``: capitalised words right before a word for datasets name one, whatever
        their shape."""
        def named(token: Token) -> bool:
            return token.is_title and token.is_alpha and len(token) > 2 and not token.is_sent_start and not token.is_stop

        for token in doc[1:]:
            if token.lower_ in self.vocab.dataset_heads:
                end = token.i
                while end > 0 and named(doc[end - 1]):
                    start = end - 1
                    while start > 0 and named(doc[start - 1]) and doc[start - 1].whitespace_:
                        start -= 1  # Long Range Arena, Safety Gym
                    yield Candidate(start, end, "Dataset", PRIORITY_NAME)
                    if start >= 2 and doc[start - 1].lower_ in ("and", "or", ","):
                        end = start - 1
                    else:
                        break

    def _whole_glued_name(self, doc: Doc, start: int, end: int) -> tuple[int, int]:
        """A catalogue name inside a longer hyphenated name is that name, another entity:
        ``CIFAR-10-Warehouse``, ``OGB-LSC-PCQM4Mv1``, ``NExT-GPT`` (not ``-based`` suffixes)."""
        texts, spaces = self._texts, self._spaces
        first = start
        while first >= 2 and texts[first - 1] == "-" and spaces[first - 2] == "" and spaces[first - 1] == "" and (
            texts[first - 2][:1].isalnum() and not (doc[first - 2].is_lower and doc[first - 2].is_stop)
        ):
            first -= 2
        run_end = self._glued_run(doc, first)[1]
        last = self._strip_suffixes(doc, first, max(end, run_end))
        return first, max(end, last)

    def _with_variant(self, doc: Doc, end: int) -> int:
        """``GPT-2 XL``, ``BERT base``, ``T5-large``: a size or variant word names a release."""
        while end < len(doc) and doc[end].lower_ in self.vocab.model_variants and doc[end - 1].whitespace_:
            end += 1
        return end

    def _defined(self, doc: Doc):
        at = self._catalogue_at(doc)
        learned_at = {(s.start, s.end): s.label_ for s in doc.spans.get(self.learned_key, [])}
        for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
            short = doc.char_span(s_start, s_end, alignment_mode="expand")
            long = doc.char_span(l_start, l_end, alignment_mode="expand")
            if short is None or long is None:
                continue
            while len(long) > 1 and long[0].whitespace_ and (
                long[0].tag_ in ("DT", "PDT", "PRP$") or long[0].lower_ == "such"
            ):
                long = long[1:]  # "such generative verifiers (GenRM)"
            match = at.get((short.start_char, short.end_char))
            label = match.label_ if match is not None and _names_entry(long.text, match.id_) else None
            label = label or type_of_phrase(long, self.vocab)
            if label is None and not self._names_something(doc, long):
                label = learned_at.get((short.start, short.end)) or learned_at.get((long.start, long.end))
                if label is None:
                    self._blocked.add(short.text)
                    continue
            yield Candidate(short.start, short.end, label, PRIORITY_DEFINED)
            yield Candidate(long.start, long.end, label, PRIORITY_DEFINED)

    @staticmethod
    def _names_something(doc: Doc, long: Span) -> bool:
        """An untyped long form still names something when set in bold or capitalised
        (``Modality kNowledge Alignment``); ``out-of-distribution (OOD)`` does not."""
        bold = any(long.start_char <= s < long.end_char for s, _, kind in doc._.kg_emphasis if kind != "quoted")
        return bold or any(t.text[:1].isupper() for t in long if t.is_alpha)

    def _naming_slots(self, doc: Doc):
        """Capitalised words where a paper names something, whatever their shape:
        ``dubbed X``, ``we propose X``, ``X, a novel ...``, an abstract opening ``X is a ...``."""
        for token in doc:
            if not token.is_title or not token.is_alpha or len(token) < 3 or token.is_stop:
                continue
            i = token.i
            before = [t.lower_ for t in doc[max(0, i - 2) : i]]
            after = [t.lower_ for t in doc[i + 1 : i + 3]]
            if self._introduces_name(before) or _described_after(doc, token, after):
                yield i

    def _introduces_name(self, before: list[str]) -> bool:
        """The two words before a position announce a name: ``dubbed``, ``we propose``,
        ``propose the``, ``our proposed``, ``datasets,``."""
        if not before:
            return False
        first, last = before[0], before[-1]
        vocab = self.vocab
        return (
            last in vocab.naming_words
            or last in vocab.propose_verbs
            or (last == "the" and first in vocab.propose_verbs)
            or before in OUR_NEW
            or (last == "," and (first in vocab.generic_heads or first in vocab.dataset_heads))
        )

    def _names(self, doc: Doc):
        """Name-shaped candidates; a name once written with its head noun (``KV cache``)
        keeps it wherever the same two words meet (``KV cache memory usage``)."""
        found = list(self._name_candidates(doc))
        with_head = {(doc[c.start:c.end - 1].text, doc[c.end - 1].lower_) for c in found
                     if c.end - c.start >= 2 and doc[c.end - 1].is_lower and doc[c.end - 2].whitespace_}
        for c in found:
            nxt = doc[c.end].lower_ if c.end < len(doc) else ""
            if (doc[c.start:c.end].text, nxt) in with_head:
                c.end += 1
            yield c

    def _name_candidates(self, doc: Doc):
        yield from self._named_in_slots(doc)
        yield from self._shaped_names(doc)

    def _named_in_slots(self, doc: Doc):
        """Every occurrence of a word in a naming slot, with the capitalised words that continue it."""
        named = {doc[i].text for i in self._naming_slots(doc)}
        for token in doc:
            if token.text in named:
                end = self._strip_suffixes(doc, token.i, self._glued_run(doc, token.i)[1])
                end = self._with_size(doc, self._title_words_end(doc, end, token.sent))[0]
                coined = term_frequency(doc[token.i:end].text) == 0
                yield Candidate(token.i, end, None, PRIORITY_NAME, coined=coined)

    def _title_words_end(self, doc: Doc, end: int, sent: Span) -> int:
        """Where capitalised words continuing a name end: dubbed Displacement Interpolation
        Transport Model, Fast and Forgetful Memory."""
        while end < len(doc) and doc[end].sent == sent and (
            self._is_title_word(doc[end])
            or (doc[end].lower_ in ("and", "of", "for", "-") and end + 1 < len(doc)
                and self._is_title_word(doc[end + 1]) and doc[end + 1].sent == sent)
        ):
            end += 1
        return end

    def _shaped_names(self, doc: Doc):
        """Glued runs of tokens shaped like a name (``GNN-Diff``), with a head noun or size after them."""
        i = 0
        texts = self._texts
        while i < len(doc):
            start, end = self._glued_run(doc, i)
            i = max(end, i + 1)
            if not any(c.isupper() or c.isdigit() for text in texts[start:end] for c in text):
                continue  # no name has neither capitals nor digits
            end = self._strip_suffixes(doc, start, end)
            if end <= start or any(c in doc[start:end].text for c in _NOT_IN_NAMES):
                continue
            end = self._with_head_noun(doc, end)
            text = doc[start:end].text
            if text in self._blocked or doc[start].like_url or doc[start].like_email or not is_name_like(text, self.vocab):
                continue
            end, sized = self._with_size(doc, end)
            yield Candidate(start, end, "Model" if sized else None, PRIORITY_NAME)

    def _with_head_noun(self, doc: Doc, end: int) -> int:
        """``KV cache``, ``OOD detection``: a name modifying a specific head noun names the whole."""
        if end < len(doc) and doc[end].is_lower and doc[end].pos_ in ("NOUN", "PROPN"):
            word = doc[end].lower_
            heads = self.vocab.task_heads | self.vocab.method_heads | self.vocab.metric_heads
            if word in heads and word not in self.vocab.generic_heads and not self._modifies_next(doc, end):
                return end + 1
        return end

    def _glued_run(self, doc: Doc, i: int) -> tuple[int, int]:
        """Tokens written without spaces and joined by hyphens: ``GNN-Diff``, ``LLM-as-a-Judge``."""
        texts, spaces, n = self._texts, self._spaces, len(self._texts)
        end = i + 1
        while (
            end < n
            and spaces[end - 1] == ""
            and (texts[end] == "-" or texts[end - 1] == "-")
            and (texts[end] != "-" or (end + 1 < n and spaces[end] == ""))
        ):
            end += 1
        return i, end

    def _strip_suffixes(self, doc: Doc, start: int, end: int) -> int:
        if any(t.tag_ in ("IN", "DT", "TO") for t in doc[start + 1 : end]):
            return end  # LLM-as-a-judge, Tree-of-Thoughts: one compound name
        while end - start >= 3 and doc[end - 2].text == "-" and (
            doc[end - 1].lower_ in self.vocab.name_suffixes or doc[end - 1].is_lower
        ):
            last = doc[end - 1].text
            if is_name_like(last, self.vocab) or any(c.isdigit() for c in last):
                break  # GPT-o1, Llama-v2: a version, not a suffix
            end -= 2
        return end

    @staticmethod
    def _with_size(doc: Doc, end: int) -> tuple[int, bool]:
        """Extend a name over a following size: ``OPT (30B)``, ``Llama 2 70B``."""
        text = doc[end - 1].text
        if SIZE.search(text.rsplit("-", 1)[-1]):
            return end, True
        if end + 2 < len(doc) + 0 and doc[end].text == "(" and end + 2 < len(doc):
            if SIZE.match(doc[end + 1].text) and doc[end + 2].text == ")":
                return end + 3, True
        if end < len(doc) and SIZE.match(doc[end].text):
            return end + 1, True
        if end + 1 < len(doc) and doc[end].text == "-" and doc[end - 1].whitespace_ == "" and (
            SIZE.match(doc[end + 1].text)
        ):
            return end + 2, True
        return end, False

    def _title_phrases(self, doc: Doc):
        for sent in doc.sents:
            i = sent.start
            while i < sent.end:
                if not self._is_title_word(doc[i]) or i == sent.start:
                    i += 1
                    continue
                end = i
                while end < sent.end and (
                    self._is_title_word(doc[end])
                    or (doc[end].text in ("-", "of", "for", "with") and end + 1 < sent.end
                        and self._is_title_word(doc[end + 1]))
                ):
                    end += 1
                if end - i >= 2 and not (
                    doc[end - 1].lower_.endswith(self.vocab.adjective_endings)
                    and type_of_phrase(doc[i:end], self.vocab) is None
                ):
                    span = doc[i:end]
                    named = any(is_name_like(t.text, self.vocab) for t in span)
                    yield Candidate(
                        i,
                        end,
                        type_of_phrase(span, self.vocab) or (None if named else "Method"),
                        PRIORITY_NAME if named else PRIORITY_TITLE,
                    )
                i = end

    @staticmethod
    def _is_title_word(token: Token) -> bool:
        """A capitalised word, not a formula glued into one token (``V1−V2ln((o2…``)."""
        text = token.text
        return (
            len(text) > 1 and text[0].isupper() and text[:1].isalpha() and not token.is_stop
            and text.replace("-", "").replace("'", "").isalnum()
        )

    def _head_phrases(self, doc: Doc):
        for token in doc:
            if token.pos_ not in ("NOUN", "PROPN", "VERB") or token.is_punct:
                continue
            word = token.lower_
            if word.endswith("s") and token.tag_ == "NNS":
                word = singular_name(word)  # personalized recommendations
            is_metric = token.lower_ in self.vocab.metric_heads  # singular: "attention scores" are not metrics
            is_task = word in self.vocab.task_heads
            if word in _KIND_WORDS and not (is_task or is_metric):
                yield from self._before_kind_word(doc, token.i, _KIND_WORDS[word])
                continue
            if (is_task or is_metric or self._is_head_word(doc, token)) and not self._modifies_next(doc, token.i):
                phrase = self._phrase_ending_at(doc, token.i, is_metric)
                if phrase is not None:
                    yield phrase

    def _is_head_word(self, doc: Doc, token: Token) -> bool:
        """A word ending a method phrase: a specific method head, or *model(s)* after a modifying noun."""
        word = token.lower_
        if word in self.vocab.method_heads and word not in self.vocab.generic_heads:
            return True
        return word in ("model", "models") and token.i > 0 and doc[token.i - 1].pos_ in (
            "NOUN", "PROPN"
        ) and self._is_modifier(doc[token.i - 1])

    def _phrase_ending_at(self, doc: Doc, head: int, is_metric: bool) -> Candidate | None:
        """The typed phrase of the modifiers before ``head`` and ``head``; a metric word alone
        unless it needs a modifier (``score``)."""
        start = head
        while start > 0 and head - start + 1 < self.max_phrase_tokens and self._is_modifier(doc[start - 1]):
            start -= 1
        while start < head and (doc[start].text == "-" or (is_metric and _is_degree(doc[start]))):
            start += 1
        start = self._whole_compound(doc, start, head)
        if start == head:
            if is_metric and doc[head].lower_ not in self.vocab.compound_metric_heads:
                return Candidate(start, head + 1, "Metric", PRIORITY_PHRASE)
            return None
        span = doc[start : head + 1]
        if name_key(span.text) in self.vocab.generic_terms:
            return None
        kind = type_of_phrase(span, self.vocab)
        return Candidate(start, head + 1, kind, PRIORITY_PHRASE) if kind else None

    def _before_kind_word(self, doc: Doc, i: int, label: str):
        """``world knowledge tasks``, ``graph coloring task``, ``generative perplexity
        metric``: two or more content words right before a word naming a kind."""
        end = i
        if end < 2 or not (doc[end - 1].pos_ in ("NOUN", "PROPN") or doc[end - 1].tag_ == "VBG"):
            return
        start = end - 1
        while start > 0 and end - start < self.max_phrase_tokens and self._is_modifier(doc[start - 1]):
            start -= 1
        while start < end - 1 and _is_degree(doc[start]):
            start += 1
        words = doc[start:end]
        if len(words) >= 2 and name_key(words.text) not in self.vocab.generic_terms and all(
            t.pos_ in ("NOUN", "PROPN", "ADJ") or t.tag_ == "VBG" for t in words
        ):
            yield Candidate(start, end, label, PRIORITY_PHRASE)

    def _whole_compound(self, doc: Doc, start: int, head: int) -> int:
        """Never start inside a hyphenated compound: take all of ``column-and-constraint``,
        or none of ``state-of-the-art``."""
        if start == 0 or doc[start - 1].text != "-" or doc[start - 2].whitespace_ != "":
            return start
        first = start - 1
        while first > 0 and doc[first - 1].whitespace_ == "" and doc[first - 1].text not in "([{\"'":
            first -= 1
        compound = doc[first:start].text + doc[start].text
        if any(part in self.vocab.generic_modifiers for part in (compound.lower(), doc[first].lower_)):
            while start < head and doc[start - 1].whitespace_ == "" and start > first:
                start += 1
            return start
        return first

    @staticmethod
    def _modifies_next(doc: Doc, i: int) -> bool:
        """``verification pass``: the head word is itself a modifier of the next noun."""
        if i + 1 >= len(doc):
            return False
        nxt = doc[i + 1]
        return nxt.pos_ in ("NOUN", "PROPN") and nxt.lower_ not in _PHRASE_FOLLOWERS

    def _is_modifier(self, token: Token) -> bool:
        if token.text == "-":
            return True
        in_compound = token.whitespace_ == "" and token.i + 1 < len(token.doc) and token.nbor().text == "-"
        if token.lower_ in self.vocab.generic_modifiers or (token.is_stop and not in_compound):
            return False
        if token.like_num and not (in_compound and token.is_alpha):
            return False
        if len(token.text) < 2 or any(c.isdigit() for c in token.text) or token.text in self._blocked:
            return False
        return token.pos_ in ("NOUN", "ADJ", "PROPN") or (
            token.tag_ in ("VBN", "VBG") and token.whitespace_ == ""
        )

    # -- choice and typing ------------------------------------------------------------
    def _decide(self, doc: Doc, chosen: list[Candidate], learned: list[Candidate]) -> list[Candidate]:
        """The learned last word: per name, keep it (with the type it gives) or drop it."""
        kept = []
        learned_at = {(c.start, c.end): c.label for c in learned}
        groups = candidate_groups(doc, chosen)
        for group in groups.values():
            p = self.decider.probabilities(entity_features(doc, group, learned_at, self.vocab, set(groups)))
            none = self.decider.classes.index("none")
            if p[none] >= self.threshold and not any(c.coined for c in group):
                continue  # a word coined where the paper names something stays, whatever the decision
            p[none] = -1.0
            label = self.decider.classes[int(p.argmax())]
            for c in group:
                c.label = label
            kept += group
        return sorted(kept, key=lambda c: c.start)


    def _generic(self, doc: Doc, candidate: Candidate) -> bool:
        """A generic class (``language model``, ``deep neural network``) is not an entity, unless
        the text gives it an acronym (``large language models (LLMs)``): then it names a family."""
        text = doc[candidate.start:candidate.end].text
        return (candidate.priority < PRIORITY_DEFINED and self.vocab.is_generic_phrase(text)
                and not self.vocab.is_family(text))


    @staticmethod
    def _non_overlapping(doc: Doc, candidates: list[Candidate]) -> list[Candidate]:
        """Stronger first, then longer; a descriptive phrase containing a catalogue match
        of its own type (``inference latency`` around ``latency``) counts as strong."""
        _strengthen_around_catalogue(doc, candidates)
        taken: set[int] = set()
        chosen: list[Candidate] = []
        for c in sorted(candidates, key=lambda c: (-c.priority, -(c.end - c.start), c.start)):
            if c.end <= c.start or any(i in taken for i in range(c.start, c.end)):
                continue
            taken.update(range(c.start, c.end))
            chosen.append(c)
        return sorted(chosen, key=lambda c: c.start)

    def _without_kind_word(self, doc: Doc, c: Candidate) -> None:
        """``language modeling tasks`` is the task ``language modeling``; ``the Plink dataset``
        the dataset ``Plink``: a trailing word saying what kind of thing it is, is not its name."""
        kinds = _KIND_ENDINGS.get(c.label or "", ())
        if c.end - c.start > 1 and doc[c.end - 1].lower_ in kinds and doc[c.end - 2].text != "-":
            if c.label != "Dataset" or any(ch.isupper() or ch.isdigit() for ch in doc[c.start:c.end - 1].text):
                c.end -= 1
                c.kb_id = c.kb_id if c.source == "catalogue" else ""

    def _described_as(self, doc: Doc, c: Candidate) -> str | None:
        """Strong cues that override a guessed type: ``X dataset``, ``X, a question-answering
        dataset``, ``X, a novel framework``."""
        if c.end < len(doc) and doc[c.end].lower_ in self.vocab.dataset_heads:
            return "Dataset"
        if c.end + 2 < len(doc) and doc[c.end].text == "," and doc[c.end + 1].lower_ in ("a", "an"):
            end = c.end + 2
            while end < len(doc) and end - c.end < 9 and (
                not doc[end].is_punct or (doc[end].text == "-" and not doc[end - 1].whitespace_)
            ):
                if doc[end].lower_ in ("that", "which", "for", "to", "of", "with", "on", "in", "by"):
                    break
                end += 1
            kind = type_of_phrase(doc[c.end + 2:end], self.vocab) if end > c.end + 2 else None
            if kind in ("Dataset", "Method"):
                return kind
        return None

    def _type_from_context(self, doc: Doc, chosen: list[Candidate]) -> None:
        """Type the chosen names by a description, the words around them and the lists they
        are in; Method when nothing says otherwise."""
        for c in chosen:
            if c.source in ("name", "learned", "title") and not c.kb_id:
                c.label = self._described_as(doc, c) or c.label
        known_before = {id(c) for c in chosen if c.label}
        for c in chosen:
            if not c.label:
                c.label = self._type_from_neighbours(doc, c) or c.label
        for group in self._lists(doc, chosen):
            self._type_list(doc, group, known_before)
        for c in chosen:
            c.label = c.label or "Method"

    def _type_from_neighbours(self, doc: Doc, c: Candidate) -> str | None:
        """The type the word after or before a name gives: ``X dataset``, ``X metric``,
        ``benchmarks X``, ``evaluated on X``."""
        after = doc[c.end].lower_ if c.end < len(doc) else ""
        before = doc[c.start - 1].lower_ if c.start > 0 else ""
        if after in self.vocab.dataset_heads:
            return "Dataset"
        if after in self.vocab.model_heads and c.end - c.start == 1:
            return "Model"
        if after in _KIND_AFTER:
            return _KIND_AFTER[after]
        if before in ("dataset", "datasets", "benchmark", "benchmarks"):
            return "Dataset"
        if before in ("on", "across") and _EVALUATION_WORDS & {t.lower_ for t in doc[c.start].sent}:
            return "Dataset"
        return None

    def _type_list(self, doc: Doc, group: list[Candidate], known_before: set[int]) -> None:
        """The names of a list share a type: the commonest one known (from the catalogue, or
        found from context; of two as common, the first named), and Dataset for names listed with a dataset
        (``the WinoBias and Winogender benchmarks``)."""
        known = [
            c.label
            for c in group
            if c.label and (c.priority >= PRIORITY_CATALOGUE or id(c) not in known_before)
        ]
        if known:
            label = max(dict.fromkeys(known), key=known.count)  # a set's order changes per process
            for c in group:
                if c.label is None:
                    c.label = label
        if any(c.label == "Dataset" and (c.kb_id or self._described_as(doc, c)) for c in group):
            for c in group:
                if c.source in ("name", "learned") and not c.kb_id:
                    c.label = "Dataset"

    @staticmethod
    def _lists(doc: Doc, chosen: list[Candidate]):
        """Runs of candidates separated only by commas and conjunctions."""
        group: list[Candidate] = []
        for c in chosen:
            if group:
                between = doc[group[-1].end : c.start]
                if len(between) <= 2 and all(t.lower_ in _LIST_GLUE for t in between):
                    group.append(c)
                    continue
                if len(group) > 1:
                    yield group
            group = [c]
        if len(group) > 1:
            yield group


def _described_after(doc: Doc, token: Token, after: list[str]) -> bool:
    """A description follows the word: ``X, a ...`` mid-sentence, or an abstract opening ``X is a ...``."""
    if after[:1] == [","] and after[1:] in (["a"], ["an"]) and token.i > token.sent.start:
        return True
    i = token.i
    return i == 0 and after[:1] == ["is"] and doc[i + 2 : i + 3].text.lower() in ("a", "an")


def _strengthen_around_catalogue(doc: Doc, candidates: list[Candidate]) -> None:
    """A typed phrase around a catalogue match of its own type, and of no other type, counts
    as a catalogue match (not ``LAMBADA natural language understanding`` over the dataset)."""
    catalogued = [c for c in candidates if c.priority == PRIORITY_CATALOGUE]
    catalogued.sort(key=lambda c: c.start)
    starts = [c.start for c in catalogued]
    for phrase in candidates:
        if phrase.priority >= PRIORITY_CATALOGUE or not phrase.label:
            continue
        # only the matches starting inside the phrase: a long text stays linear
        first, last = bisect_left(starts, phrase.start), bisect_right(starts, phrase.end)
        inside = [c for c in catalogued[first:last] if phrase.start <= c.start and c.end <= phrase.end]
        if any(c.label != phrase.label for c in inside):
            continue
        if any(_stands_for_phrase(doc, c, phrase) for c in inside):
            phrase.priority = PRIORITY_CATALOGUE


def _stands_for_phrase(doc: Doc, match: Candidate, phrase: Candidate) -> bool:
    """A shorter catalogue match of the phrase's type inside it makes it strong, but not a dataset
    or model name followed by common words (``HumanEval coding`` benchmark)."""
    if (match.start, match.end) == (phrase.start, phrase.end):
        return False
    return not (match.label in ("Dataset", "Model") and match.start == phrase.start
                and all(t.is_lower for t in doc[match.end:phrase.end]))


def _label_as_learned(candidates: list[Candidate], learned: list[Candidate]) -> None:
    """An untyped candidate takes the type the recogniser gives the same extent."""
    by_extent = {(c.start, c.end): c.label for c in learned}
    for c in candidates:
        if c.label is None and (c.start, c.end) in by_extent:
            c.label = by_extent[(c.start, c.end)]


def _favour_whole_emphasis(doc: Doc, candidates: list[Candidate], learned: list[Candidate]) -> None:
    """The authors set the whole name in italics (_filter SBI_), or introduce it whole (``we
    introduce KL-masking``, ``Tandem transformers``): it wins over a shorter name inside."""
    whole = ("emphasis", "introduced")
    inner = [c for c in [*candidates, *learned] if c.source not in whole and c.priority < PRIORITY_DEFINED]
    for c in candidates:
        inside = [i for i in inner if c.start <= i.start and i.end <= c.end and i.end - i.start < c.end - c.start]
        if c.source == "introduced" and any(i.priority >= PRIORITY_NAME and _described(doc, i, c) for i in inside):
            continue
        if c.source in whole and inside:
            c.priority = PRIORITY_NAME + 0.5


def _described(doc: Doc, name: Candidate, phrase: Candidate) -> bool:
    """The name stands by itself and the other words of the phrase describe it: ``a neural
    LSEnet``, ``the AtSpeed-S optimization objective``; not ``KL-masking`` (glued) or
    ``Tandem transformers`` (a plain word that needs its head)."""
    if name.end == phrase.end:
        return True
    words = doc[name.start:name.end]
    plain = len(words) == 1 and words[0].is_title and words[0].is_alpha
    return bool(doc[name.end - 1].whitespace_) and not plain


def candidate_groups(doc: Doc, chosen: list[Candidate]) -> dict[str, list[Candidate]]:
    """Chosen candidates by name (one entity of the paper per name key)."""
    groups: dict[str, list[Candidate]] = {}
    for c in chosen:
        groups.setdefault(name_key(doc[c.start:c.end].text), []).append(c)
    return groups


def emphasized_spans(doc: Doc, max_tokens: int = 6) -> list[Span]:
    """The italic, bold or quoted phrases of ``doc`` (the cleaner's ``kg_emphasis``) of one to
    ``max_tokens`` tokens, without determiners or punctuation at their edges; single letters
    (bold-letter acronyms) and phrases without a word left out. Computed once per document:
    the candidates, and the features of every name, ask for them."""
    key = ("kg_emphasized", max_tokens)
    if key in doc.user_data:
        return doc.user_data[key]
    found = []
    for start, end, _ in doc._.kg_emphasis:
        span = doc.char_span(start, end, alignment_mode="contract")  # not the word of a bold letter
        if span is None:
            continue
        while len(span) and (span[0].is_punct or span[0].tag_ in ("DT", "PRP$")):
            span = span[1:]
        while len(span) and span[-1].is_punct and span[-1].text != ")":
            span = span[:-1]
        if 1 <= len(span) <= max_tokens and len(span.text) > 2 and any(t.is_alpha and not t.is_stop for t in span):
            found.append(span)
    doc.user_data[key] = found
    return found


def _after_acronym(doc: Doc, start: int, end: int) -> int | None:
    """The token after a name's parenthesised acronym (``Marginal Ratio (MR) estimator``), or
    after the acronym itself (``(MR) estimator``); None when there is none."""
    if end + 3 < len(doc) and doc[end].text == "(" and doc[end + 2].text == ")":
        return end + 3
    if 0 < start and end + 1 < len(doc) and doc[start - 1].text == "(" and doc[end].text == ")":
        return end + 1
    return None


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    return next((str(e) for e in edges if n <= e), f">{edges[-1]}")


def is_variant(key: str, others: set[str]) -> bool:
    """``atspeed-s`` of ``atspeed``, ``rgib-ssl`` of ``rgib``: a name built on another name
    of the same text (name keys)."""
    return any(key.startswith(other + "-") for other in others if len(other) >= 3 and other != key)


def entity_features(doc: Doc, group: list[Candidate], learned_at: dict[tuple[int, int], str | None],
                    vocabulary: Vocabulary, names: set[str] = frozenset()) -> list[str]:
    """What speaks for and against one named candidate being an entity, and of which type
    (``learned_at``: the recogniser's labels by token extent; ``names``: the name keys of
    every candidate of the text)."""
    first = group[0]
    span = doc[first.start:first.end]
    feats = [f"label={first.label}", f"tokens={_bucket(len(span), (1, 2, 3, 4))}",
             f"mentions={_bucket(len(group), (1, 2, 4))}"]
    feats += _origin_features(group, learned_at)
    feats += _shape_features(span, vocabulary)
    feats += _word_features(span, first.label)
    feats += _standing_features(doc, group, vocabulary, names)
    for c in group[:2]:
        feats += _neighbour_features(doc, c, first.label)
    return sorted(set(feats))


def _origin_features(group: list[Candidate], learned_at: dict[tuple[int, int], str | None]) -> list[str]:
    """Which rules, recogniser labels and catalogue entries found the name."""
    first = group[0]
    feats = sorted({f"source={c.source}" for c in group})
    feats += sorted({f"source={c.source}|{c.label}" for c in group})
    ner = {learned_at.get((c.start, c.end)) for c in group} - {None}
    feats += [f"ner={label}" for label in sorted(ner)] or ["ner=none"]
    if any(c.kb_id for c in group):
        feats.append(f"catalogue|{first.label}")
    if first.priority >= PRIORITY_CATALOGUE and not first.kb_id:
        feats.append(f"catalogue-inside|{first.label}")  # BERT-base, CIFAR-10-Warehouse
    return feats


def _shape_features(span: Span, vocabulary: Vocabulary) -> list[str]:
    """How the name is written: a size, its capitals, digits, slashes, stop words."""
    text = span.text
    words = [t.lower_ for t in span]
    feats = []
    if SIZE.search(text.rsplit("-", 1)[-1].rsplit(" ", 1)[-1]) or (
        words[-1] in vocabulary.model_variants and len(words) > 1
    ):
        feats.append("sized")  # GPT-2 XL, Llama-2-7B: a released model
    feats.append(f"shape={_case_shape(span)}")
    if any(c.isdigit() for c in text):
        feats.append("shape=digit")
    if not any(c.isalpha() for c in text):
        feats.append("shape=no-letters")
    if "://" in text or "/" in text:
        feats.append("shape=slash")
    if any(t.is_stop for t in span):
        feats.append("has-stopword")
    return feats


def _case_shape(span: Span) -> str:
    """``acronym``, ``capital`` (every word), ``first-capital`` or ``lower``."""
    text = span.text
    letters = [ch for ch in text if ch.isalpha()]
    if is_short_form(text.replace(" ", "")) and sum(ch.isupper() for ch in letters) * 2 >= len(letters):
        return "acronym"
    if not text[:1].isupper():
        return "lower"
    return "capital" if all(t.text[:1].isupper() or not t.is_alpha for t in span) else "first-capital"


def _word_features(span: Span, label: str | None) -> list[str]:
    """The name's first and head words and their tags."""
    words = [t.lower_ for t in span]
    feats = [f"head={words[-1]}", f"head={words[-1]}|{label}", f"first={words[0]}"]
    if len(words) == 1:
        feats.append(f"word={words[0]}")
    if span[0].tag_:
        feats += [f"first_tag={span[0].tag_}", f"head_tag={span[-1].tag_}"]
    return feats


def _standing_features(doc: Doc, group: list[Candidate], vocabulary: Vocabulary, names: set[str]) -> list[str]:
    """Where the name stands in the field and the paper: generic, a variant of another name,
    emphasised, how common in the field, in the title."""
    first = group[0]
    text = doc[first.start:first.end].text
    feats = []
    if vocabulary.is_generic_phrase(text) or vocabulary.is_family(text):
        feats.append("generic")
    if is_variant(name_key(text), names):
        feats += ["variant", f"variant|{first.label}"]
    emphasized = {(s.start, s.end) for s in emphasized_spans(doc)}
    if any((c.start, c.end) in emphasized for c in group):
        feats += ["emphasized", f"emphasized|{first.label}"]
    df = _bucket(term_frequency(text), (0, 9, 49, 199))
    feats += [f"field_df={df}", f"field_df={df}|{first.label}"]
    title = doc._.kg_title.lower() if doc.has_extension("kg_title") else ""
    if title and text.lower() in title:
        feats.append("in_title")
    return feats


def _neighbour_features(doc: Doc, c: Candidate, label: str | None) -> list[str]:
    """The words before and after one mention, and after its acronym."""
    feats = []
    if c.start > 0:
        feats.append(f"prev={doc[c.start - 1].lower_}")
    if c.end < len(doc):
        feats += [f"next={doc[c.end].lower_}", f"next={doc[c.end].lower_}|{label}"]
    after = _after_acronym(doc, c.start, c.end)
    if after is not None:  # the Marginal Ratio (MR) estimator: the word after the acronym
        feats += [f"next_acronym={doc[after].lower_}", f"next_acronym={doc[after].lower_}|{label}"]
    return feats
