"""Descriptive phrases as candidates: Title Case phrases mid-sentence (``Monte Carlo Tree Search``)
and lower-case noun phrases ending in a head noun of a type (``node classification``)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy
from spacy.symbols import NOUN, PROPN, VERB
from spacy.tokens import Doc, Token

from kg.extract.entities.candidate import PRIORITY_NAME, PRIORITY_PHRASE, PRIORITY_TITLE, Candidate
from kg.extract.entities.phrase_types import type_of_phrase
from kg.extract.entities.shapes import is_name_like
from kg.ids import name_key, singular_name

_PHRASE_FOLLOWERS = {
    "task", "tasks", "experiment", "experiments", "benchmark", "benchmarks", "dataset",
    "datasets", "performance", "result", "results", "problem", "problems", "setting",
    "settings", "accuracy", "capability", "capabilities", "model", "models", "method", "methods",
}
_KIND_WORDS = {"task": "Task", "metric": "Metric"}
_RELATIONAL_ENDINGS = ("ic", "ical", "ive", "ary", "ar", "ual", "ional", "ural", "tial")
_NOUN = (NOUN,)
_HEAD_POS = (NOUN, PROPN, VERB)


def _tokens_tagged(doc: Doc, tags: tuple[int, ...]) -> Iterator[Token]:
    """The tokens whose part of speech is one of ``tags``, in order: read from one array, so that a
    scan for nouns makes a spaCy ``Token`` for the nouns only."""
    for i in numpy.flatnonzero(numpy.isin(doc.to_array("POS"), tags)):
        yield doc[int(i)]


def _plain_capitalised(text: str) -> bool:
    """``Learning``, not ``SOTA``, ``ViTs`` or ``Fed3R``."""
    return text[:1].isupper() and text[1:].isalpha() and text[1:].islower()


def _is_degree(token: Token) -> bool:
    """A word saying how much or how good, not what is measured: ``higher``, ``reduced``,
    ``noticeable``; a relational adjective stays (``scientific accuracy``)."""
    if token.whitespace_ == "":
        return False  # a hyphenated compound: top-1 accuracy
    if token.tag_ == "JJ":
        return not token.lower_.endswith(_RELATIONAL_ENDINGS)
    return token.tag_ in ("JJR", "JJS", "RBR", "RBS", "RB", "VBN", "VBG")


class PhraseCandidates:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``vocab``,
    ``max_phrase_tokens``, ``_blocked`` and ``_texts``."""

    def _title_phrases(self, doc: Doc):
        texts = self._texts
        for sent in doc.sents:
            i = sent.start
            while i < sent.end:
                if i == sent.start or not texts[i][:1].isupper() or not self._is_title_word(doc[i]):
                    i += 1
                    continue
                end = self._title_run_end(doc, i, sent.end, ("-", "of", "for", "with"))
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

    def _title_run_end(self, doc: Doc, start: int, limit: int, glue: tuple[str, ...]) -> int:
        """Where capitalised words from ``start``, joined by ``glue`` words, end. ``Reinforcement
        Learning with Experience Memory`` and ``Fast and Forgetful Memory`` are one name each; ``TGT
        with SOTA``, ``BRO for DCG`` and ``AdaSPS and AdaSLS`` are two: *and*, *for* and *with* join
        plain capitalised words only, unless the whole run is defined by the short form after it
        (``PFL with Bregman Divergence (pFedBreD)``)."""
        def joins(k: int, strict: bool) -> bool:
            """The glue word at ``k`` joins the capitalised words around it."""
            word = doc[k].lower_
            if word not in glue or k + 1 >= limit or not self._is_title_word(doc[k + 1]):
                return False
            return not strict or word not in ("and", "for", "with") or (
                _plain_capitalised(doc[k - 1].text) and _plain_capitalised(doc[k + 1].text))

        def run(strict: bool) -> int:
            end = start
            while end < limit and (self._is_title_word(doc[end]) or joins(end, strict)):
                end += 1
            if end - start >= 2 and _glued_part(doc, end, limit):
                end += 2  # ``Split ImageNet-R``: a short part glued on by a hyphen ends the name
            return end

        end, whole = run(True), run(False)
        return whole if whole != end and whole < limit and doc[whole].text == "(" else end

    @staticmethod
    def _is_title_word(token: Token) -> bool:
        """A capitalised word, not a formula glued into one token (``V1−V2ln((o2…``)."""
        text = token.text
        return (
            len(text) > 1 and text[0].isupper() and text[:1].isalpha() and not token.is_stop
            and text.replace("-", "").replace("'", "").isalnum()
        )

    def _head_phrases(self, doc: Doc):
        for token in _tokens_tagged(doc, _HEAD_POS):
            if token.is_punct:
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

    def _noun_phrases(self, doc: Doc):
        """Every maximal noun phrase of content words (``catastrophic forgetting``, ``length
        generalization``), untyped: tasks and metrics are written with heads no word list
        foresees. They only fill what no chosen name covers; the learned decision says which
        are names, and of which type."""
        for token in _tokens_tagged(doc, _NOUN):
            if token.is_stop or len(token.text) < 3 or self._modifies_next(doc, token.i):
                continue
            if token.i + 1 < len(doc) and doc[token.i + 1].text == "-" and doc[token.i + 1].whitespace_ == "":
                continue  # inside a hyphenated compound: its end is the head
            start = token.i
            while start > 0 and token.i - start + 1 < self.max_phrase_tokens and self._is_modifier(doc[start - 1]):
                start -= 1
            while start < token.i and doc[start].text == "-":
                start += 1
            start = self._whole_compound(doc, start, token.i)
            span = doc[start:token.i + 1]
            if not self._is_kind_only(span) and name_key(span.text) not in self.vocab.generic_terms:
                yield Candidate(start, token.i + 1, None, PRIORITY_PHRASE - 0.5, source="np")

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


def _glued_part(doc: Doc, i: int, limit: int) -> bool:
    """A hyphen at ``i`` written without spaces between a word and a short part, capital letters
    or a number (``ImageNet-R``, ``Mamba-2``; not ``Text-to``), which a capitalised run keeps."""
    if i + 1 >= limit or doc[i].text != "-" or doc[i - 1].whitespace_ or doc[i].whitespace_:
        return False
    part = doc[i + 1].text
    return len(part) <= 2 and (part.isdigit() or part.isupper())
