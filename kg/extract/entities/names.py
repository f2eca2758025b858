"""Name candidates: name-shaped tokens (``GNN-Diff``, ``OPT (30B)``), capitalised words in a
naming slot (``dubbed X``, ``we propose X``), capitalised words before a word for datasets."""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from kg.extract.entities.candidate import PRIORITY_NAME, Candidate
from kg.extract.entities.shapes import SIZE, is_name_like
from kg.extract.lexicons import term_frequency
from kg.extract.sentences import doc_words

_NOT_IN_NAMES = set("()[]{}=≠<>|_^√")  # brackets, and formulas: "VDS≠0", "UO2|U", "V_T", "R^n"
#: The units spaCy's English suffix rules split off digits (``10M``: ``10``, ``M``): in
#: ``VAST-27M`` or ``ADE20K`` they are part of a name.
_COUNT_UNITS = frozenset({"K", "M", "G", "T"})
#: The two words before a name the paper introduces (``our proposed X``); proposals read them too.
OUR_NEW = (["our", "proposed"], ["our", "resulting"], ["our", "new"])


def _described_after(doc: Doc, token: Token, after: list[str]) -> bool:
    """A description follows the word: ``X, a ...`` or ``X — a ...`` mid-sentence, or an abstract
    opening ``X is a ...``."""
    if after[:1] in ([","], ["—"], ["–"], ["--"]) and after[1:] in (["a"], ["an"]) and token.i > token.sent.start:
        return True
    i = token.i
    return i == 0 and after[:1] == ["is"] and doc[i + 2 : i + 3].text.lower() in ("a", "an")


def _capitalised_word(token: Token) -> bool:
    """A word of three letters or more that starts with a capital, digits and capitals inside allowed."""
    text = token.text
    return len(text) >= 3 and text[0].isupper() and text.isalnum() and not token.is_stop


class NameCandidates:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``vocab``, the document's
    tokens and ``_blocked``, and shares the title-word and head-noun tests of
    :class:`~kg.extract.entities.phrases.PhraseCandidates`."""

    def _before_dataset_heads(self, doc: Doc):
        """``the Winogender benchmark``, ``WinoBias and Winogender benchmarks``, ``the Long Range
        Arena benchmark``: capitalised words right before a word for datasets name one, whatever
        their shape."""
        def named(token: Token) -> bool:
            return token.is_title and token.is_alpha and len(token) > 2 and not token.is_sent_start and not token.is_stop

        heads = self.vocab.dataset_heads
        for i, word in enumerate(doc_words(doc)):
            if i > 0 and word in heads:
                end = i
                while end > 0 and named(doc[end - 1]):
                    start = end - 1
                    while start > 0 and named(doc[start - 1]) and doc[start - 1].whitespace_:
                        start -= 1  # Long Range Arena, Safety Gym
                    while start > 0 and not doc[start - 1].whitespace_ and (doc[start - 1].text == "-" or doc[start].text == "-"):
                        start -= 1  # Meta-World Kitchen: the whole hyphenated word, not its last part
                    yield Candidate(start, end, "Dataset", PRIORITY_NAME)
                    if start >= 2 and doc[start - 1].lower_ in ("and", "or", ","):
                        end = start - 1
                    else:
                        break

    def _naming_slots(self, doc: Doc):
        """Capitalised words where a paper names something, whatever their shape (``GPT4Tools``,
        ``EmotionPrompt``): ``dubbed X``, ``we propose X``, ``X, a novel ...``, an abstract opening
        ``X is a ...``."""
        for i, text in enumerate(self._texts):
            if len(text) < 3 or not text[0].isupper() or not _capitalised_word(doc[i]):
                continue
            token = doc[i]
            before = [t.lower_ for t in doc[max(0, i - 2) : i]]
            after = [t.lower_ for t in doc[i + 1 : i + 3]]
            if self._introduces_name(before) or _described_after(doc, token, after):
                yield i

    def _introduces_name(self, before: list[str]) -> bool:
        """The words before a position announce a name: ``dubbed``, ``termed as``, ``we
        propose``, ``propose the``, ``our proposed``, ``datasets,``."""
        if not before:
            return False
        first, last = before[0], before[-1]
        vocab = self.vocab
        return (
            vocab.names_next(before)
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
        if not named:
            return
        for i, text in enumerate(self._texts):
            if text in named:
                end = self._strip_suffixes(doc, i, self._glued_run(doc, i)[1])
                end = self._with_size(doc, self._title_words_end(doc, end, doc[i].sent))[0]
                coined = term_frequency(doc[i:end].text) == 0
                yield Candidate(i, end, None, PRIORITY_NAME, coined=coined)

    def _title_words_end(self, doc: Doc, end: int, sent: Span) -> int:
        """Where capitalised words continuing a name end: dubbed Displacement Interpolation
        Transport Model, Fast and Forgetful Memory."""
        return self._title_run_end(doc, end, sent.end, ("and", "of", "for", "-"))

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
            if end <= start or not _NOT_IN_NAMES.isdisjoint(doc[start:end].text):
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
        """Tokens written without spaces and joined by hyphens: ``GNN-Diff``, ``LLM-as-a-Judge``;
        and a count's unit the tokenizer splits off a name's digits (``MARIO-10`` ``M``, ``USIS10`` ``K``)."""
        texts, spaces, n = self._texts, self._spaces, len(self._texts)

        def continues(end: int) -> bool:
            if spaces[end - 1] != "":
                return False
            if texts[end] == "-":
                return end + 1 < n and spaces[end] == ""
            if texts[end - 1] == "-":
                return True
            return texts[end] in _COUNT_UNITS and texts[end - 1][-1:].isdigit() and texts[i][:1].isalpha()

        end = i + 1
        while end < n and continues(end):
            end += 1
        return i, end

    def _strip_suffixes(self, doc: Doc, start: int, end: int) -> int:
        if any(t.tag_ in ("IN", "DT", "TO") for t in doc[start + 1 : end]):
            return end  # LLM-as-a-judge, Tree-of-Thoughts: one compound name
        while end - start >= 3 and doc[end - 2].text == "-" and (
            doc[end - 1].lower_ in self.vocab.name_suffixes or doc[end - 1].is_lower
        ):
            last = doc[end - 1].text
            if is_name_like(last, self.vocab) or any(c.isdigit() for c in last) or last.lower() in self.vocab.model_variants:
                break  # GPT-o1, Llama-v2, T5-base: a version or a release, not a suffix
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
