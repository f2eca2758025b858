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

from kg.extract.vocabulary import Vocabulary
from kg.ids import name_key, singular_name

__all__ = ["EntityRecognizer", "is_name_like", "type_of_phrase"]

SIZE = re.compile(r"^\d+(?:\.\d+)?[BMKT]$|^\d+x\d+(?:\.\d+)?[BM]$", re.IGNORECASE)
_CITATION_KEY = re.compile(r"^[a-z_]+(?:19|20)\d\d[a-z_]*$")  # he2016deep, from LaTeX sources
_NAME_SHAPE = re.compile(r"[A-Z].*[A-Z]|[a-z][A-Z]|[A-Za-z]\d|^[A-Z][a-z]+\d")
_LIST_GLUE = {",", "and", "or", "&", "/", ";"}
_TECHNIQUE_HEADS = {"generation", "prediction", "decoding", "inference", "sampling", "search", "learning", "control"}
_PHRASE_FOLLOWERS = {
    "task", "tasks", "experiment", "experiments", "benchmark", "benchmarks", "dataset",
    "datasets", "performance", "result", "results", "problem", "problems", "setting",
    "settings", "accuracy", "capability", "capabilities", "model", "models", "method", "methods",
}
_KIND_WORDS = {"task": "Task", "metric": "Metric"}
_NOT_IN_NAMES = set("()[]{}=≠<>|")  # brackets, and formulas: "VDS≠0", "UO2|U"
_RELATIONAL_ENDINGS = ("ic", "ical", "ive", "ary", "ar", "ual", "ional", "ural", "tial")
_EVALUATION_WORDS = {
    "experiment", "experiments", "evaluate", "evaluated", "evaluation", "evaluations",
    "benchmark", "benchmarks", "dataset", "datasets", "results", "tested", "test", "validate",
}

PRIORITY_CATALOGUE, PRIORITY_DEFINED, PRIORITY_NAME, PRIORITY_TITLE, PRIORITY_PHRASE = 4, 3, 2, 1, 0


@dataclass
class Candidate:
    start: int  # token indices
    end: int
    label: str | None
    priority: int
    kb_id: str = ""


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
    },
)
def make_entity_recognizer(
    nlp: Language,
    name: str,
    spans_key: str,
    catalogue_key: str,
    max_phrase_tokens: int,
    vocabulary: Vocabulary,
):
    return EntityRecognizer(
        spans_key=spans_key,
        catalogue_key=catalogue_key,
        max_phrase_tokens=max_phrase_tokens,
        vocabulary=vocabulary,
    )


class EntityRecognizer:
    def __init__(
        self,
        *,
        spans_key: str,
        catalogue_key: str,
        max_phrase_tokens: int,
        vocabulary: Vocabulary,
    ) -> None:
        self.spans_key = spans_key
        self.catalogue_key = catalogue_key
        self.max_phrase_tokens = max_phrase_tokens
        self.vocab = vocabulary

    def __call__(self, doc: Doc) -> Doc:
        self._blocked: set[str] = set()
        self._texts = [t.text for t in doc]
        self._spaces = [t.whitespace_ for t in doc]
        candidates = [
            *self._catalogue(doc),
            *self._defined(doc),
            *self._names(doc),
            *self._title_phrases(doc),
            *self._head_phrases(doc),
        ]
        chosen = self._non_overlapping(candidates)
        self._type_from_context(doc, chosen)
        spans = [
            Span(doc, c.start, c.end, label=c.label or "Method", kb_id=c.kb_id) for c in chosen
        ]
        doc.spans[self.spans_key] = spans
        return doc

    # -- candidates ---------------------------------------------------------------------
    def _catalogue(self, doc: Doc):
        for span in doc.spans.get(self.catalogue_key, []):
            end, changed = span.end, False
            if span.label_ == "Model":
                run_end = self._strip_suffixes(doc, span.start, self._glued_run(doc, span.start)[1])
                end, sized = self._with_size(doc, max(end, run_end))
                changed = sized or end != span.end
            yield Candidate(span.start, end, span.label_, PRIORITY_CATALOGUE, "" if changed else span.id_)

    def _defined(self, doc: Doc):
        for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
            short = doc.char_span(s_start, s_end, alignment_mode="expand")
            long = doc.char_span(l_start, l_end, alignment_mode="expand")
            if short is None or long is None:
                continue
            while len(long) > 1 and long[0].whitespace_ and (
                long[0].tag_ in ("DT", "PDT", "PRP$") or long[0].lower_ == "such"
            ):
                long = long[1:]  # "such generative verifiers (GenRM)"
            label = self._catalogue_label(doc, short) or type_of_phrase(long, self.vocab)
            bold = any(l_start <= s < l_end for s, _, _ in doc._.kg_emphasis)
            if label is None and not bold and not any(t.text[:1].isupper() for t in long if t.is_alpha):
                self._blocked.add(short.text)
                continue
            yield Candidate(short.start, short.end, label, PRIORITY_DEFINED)
            yield Candidate(long.start, long.end, label, PRIORITY_DEFINED)

    def _catalogue_label(self, doc: Doc, span: Span) -> str | None:
        for match in doc.spans.get(self.catalogue_key, []):
            if match.start == span.start and match.end == span.end:
                return match.label_
        return None

    def _naming_slots(self, doc: Doc):
        """Capitalised words where a paper names something, whatever their shape:
        ``dubbed X``, ``we propose X``, ``X, a novel ...``, an abstract opening ``X is a ...``."""
        for token in doc:
            if not token.is_title or not token.is_alpha or len(token) < 3 or token.is_stop:
                continue
            i = token.i
            before = [t.lower_ for t in doc[max(0, i - 2) : i]]
            after = [t.lower_ for t in doc[i + 1 : i + 3]]
            if before[-1:] and (
                before[-1] in self.vocab.naming_words
                or before[-1] in self.vocab.propose_verbs
                or (before[-1] == "the" and before[:1] and before[0] in self.vocab.propose_verbs)
                or before in (["our", "proposed"], ["our", "resulting"], ["our", "new"])
                or (before[-1] == "," and before[:1] and before[0] in self.vocab.generic_heads | self.vocab.dataset_heads)
            ):
                yield i
            elif after[:1] == [","] and after[1:] in (["a"], ["an"]) and i > token.sent.start:
                yield i
            elif i == 0 and after[:1] == ["is"] and doc[i + 2 : i + 3].text.lower() in ("a", "an"):
                yield i

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
        named = {doc[i].text for i in self._naming_slots(doc)}
        for token in doc:
            if token.text in named:
                end = self._strip_suffixes(doc, token.i, self._glued_run(doc, token.i)[1])
                while end < len(doc) and self._is_title_word(doc[end]) and doc[end].sent == token.sent:
                    end += 1  # dubbed Displacement Interpolation Transport Model
                yield Candidate(token.i, self._with_size(doc, end)[0], None, PRIORITY_NAME)
        i = 0
        texts = self._texts
        while i < len(doc):
            start, end = self._glued_run(doc, i)
            i = max(end, i + 1)
            if not any(c.isupper() or c.isdigit() for text in texts[start:end] for c in text):
                continue  # no name has neither capitals nor digits
            end = self._strip_suffixes(doc, start, end)
            if end <= start:
                continue
            text = doc[start:end].text
            if any(c in text for c in _NOT_IN_NAMES):
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
        vocab = self.vocab
        for token in doc:
            if token.pos_ not in ("NOUN", "PROPN", "VERB") or token.is_punct:
                continue
            label = None
            word = token.lower_
            if word.endswith("s") and token.tag_ == "NNS":
                word = singular_name(word)  # personalized recommendations
            is_metric = token.lower_ in vocab.metric_heads  # singular: "attention scores" are not metrics
            if word in vocab.task_heads or is_metric:
                label = "head"
            elif word in _KIND_WORDS:
                yield from self._before_kind_word(doc, token.i, _KIND_WORDS[word])
                continue
            elif token.lower_ in vocab.method_heads and token.lower_ not in vocab.generic_heads:
                label = "head"
            elif token.lower_ in ("model", "models") and token.i > 0 and doc[token.i - 1].pos_ in (
                "NOUN", "PROPN"
            ) and self._is_modifier(doc[token.i - 1]):
                label = "head"
            if label is None or self._modifies_next(doc, token.i):
                continue
            start = token.i
            while (
                start > 0
                and token.i - start + 1 < self.max_phrase_tokens
                and self._is_modifier(doc[start - 1])
            ):
                start -= 1
            while start < token.i and (
                doc[start].text == "-" or (is_metric and _is_degree(doc[start]))
            ):
                start += 1
            start = self._whole_compound(doc, start, token.i)
            if start == token.i:
                if is_metric and token.lower_ not in vocab.compound_metric_heads:
                    yield Candidate(start, token.i + 1, "Metric", PRIORITY_PHRASE)
                continue
            span = doc[start : token.i + 1]
            if name_key(span.text) in vocab.generic_terms:
                continue
            kind = type_of_phrase(span, vocab)
            if kind:
                yield Candidate(start, token.i + 1, kind, PRIORITY_PHRASE)

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
    @staticmethod
    def _non_overlapping(candidates: list[Candidate]) -> list[Candidate]:
        """Stronger first, then longer; a descriptive phrase containing a catalogue match
        of its own type (``inference latency`` around ``latency``) counts as strong."""
        catalogued = [c for c in candidates if c.priority == PRIORITY_CATALOGUE]
        catalogued.sort(key=lambda c: c.start)
        starts = [c.start for c in catalogued]
        for phrase in candidates:
            # only the matches starting inside the phrase: a long text stays linear
            first, last = bisect_left(starts, phrase.start), bisect_right(starts, phrase.end)
            inside = catalogued[first:last]
            if phrase.priority < PRIORITY_CATALOGUE and phrase.label and not any(
                c.label != phrase.label and phrase.start <= c.start and c.end <= phrase.end
                for c in inside
            ):  # not "LAMBADA natural language understanding" over the dataset LAMBADA
                for c in inside:
                    if (c.label == phrase.label
                            and phrase.start <= c.start and c.end <= phrase.end
                            and (c.start, c.end) != (phrase.start, phrase.end)):
                        phrase.priority = PRIORITY_CATALOGUE
        taken: set[int] = set()
        chosen: list[Candidate] = []
        for c in sorted(candidates, key=lambda c: (-c.priority, -(c.end - c.start), c.start)):
            if c.end <= c.start or any(i in taken for i in range(c.start, c.end)):
                continue
            taken.update(range(c.start, c.end))
            chosen.append(c)
        return sorted(chosen, key=lambda c: c.start)

    def _type_from_context(self, doc: Doc, chosen: list[Candidate]) -> None:
        known_before = {id(c) for c in chosen if c.label}
        for c in chosen:
            if c.label:
                continue
            after = doc[c.end].lower_ if c.end < len(doc) else ""
            before = doc[c.start - 1].lower_ if c.start > 0 else ""
            if after in self.vocab.dataset_heads:
                c.label = "Dataset"
            elif after in self.vocab.model_heads and c.end - c.start == 1:
                c.label = "Model"
            elif after in ("metric", "metrics", "score", "scores"):
                c.label = "Metric"
            elif after in ("task", "tasks"):
                c.label = "Task"
            elif before in ("dataset", "datasets", "benchmark", "benchmarks"):
                c.label = "Dataset"
            elif before in ("on", "across") and _EVALUATION_WORDS & {
                t.lower_ for t in doc[c.start].sent
            }:
                c.label = "Dataset"
        for group in self._lists(doc, chosen):
            known = [
                c.label
                for c in group
                if c.label and (c.priority >= PRIORITY_CATALOGUE or id(c) not in known_before)
            ]
            if known:
                label = max(set(known), key=known.count)
                for c in group:
                    if c.label is None:
                        c.label = label
        for c in chosen:
            c.label = c.label or "Method"

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
