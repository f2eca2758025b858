"""Acronym definitions: ``long form (SF)``, ``SF (long form)``, ``long form, dubbed SF`` and
bold-letter acronyms.

Schwartz & Hearst (2003) matching, as in scispacy's ``abbreviation_detector``,
plus the bold-letter form of scraped abstracts (``**M**otif-b**A**sed **G**NN
**E**xplainer (MAGE)``, ``*TRON*, a **t**wo-step framework for **r**isk ...``),
whose letters come from the emphasis spans the cleaner records.

Definitions are stored as character offsets (clean text) in
``doc._.kg_abbreviations``: ``[(short_start, short_end, long_start, long_end), ...]``.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.vocabulary import Vocabulary, default_vocabulary

__all__ = ["AbbreviationDetector", "schwartz_hearst_long_form", "is_short_form"]

_DETERMINERS = {"a", "an", "the", "this", "that", "these", "those", "our", "its", "their", "we", "it"}
_LONG_FORM_GLUE = {"a", "an", "the", "of", "and", "for", "with", "in", "on", "to", "via", "by", "from"}
_NOT_DEFINITIONS = {"table", "figure", "fig", "eq", "section", "sec", "see", "appendix", "ours", "e.g", "i.e"}

if not Doc.has_extension("kg_abbreviations"):
    Doc.set_extension("kg_abbreviations", default=[])
if not Doc.has_extension("kg_emphasis"):
    Doc.set_extension("kg_emphasis", default=[])


def is_short_form(text: str) -> bool:
    """A plausible acronym: 2-12 characters, starts alphanumeric, has a capital letter."""
    core = text[:-1] if text.endswith("s") and text[:-1].isupper() else text
    return (
        2 <= len(core) <= 12
        and core[0].isalnum()
        and any(c.isupper() for c in core)
        and sum(c.isalpha() for c in core) >= 2
        and " " not in core
    )


def schwartz_hearst_long_form(short: str, words: list[str]) -> int | None:
    """Index of the first word of the long form ending ``words`` that ``short`` abbreviates.

    >>> schwartz_hearst_long_form("GNNs", "of Graph Neural Networks".split())
    1
    >>> schwartz_hearst_long_form("MAGE", "an innovative Motif-bAsed GNN Explainer".split())
    2
    >>> schwartz_hearst_long_form("L2M", "method , Learning - to - Modulate".split())  # 2 for "to"
    2
    >>> schwartz_hearst_long_form("GS2", "a generative subgame solving".split())  # S2: two words in S
    1
    """
    first = _long_form_start(short, words)
    if first is None and any(c in "24" for c in short):
        first = _long_form_start(short, [_DIGIT_WORDS.get(w.lower(), w) for w in words])
    if first is None and _REPEATED.search(short):
        first = _initials_start(_REPEATED.sub(lambda m: m.group(1) * int(m.group(2)), short), words)
    return first


def _initials_start(letters: str, words: list[str]) -> int | None:
    """Index of the first of the last words of ``words`` whose initials, glue words left out,
    are ``letters`` (``AAAC``: Asynchronous Advantage Actor - Critic)."""
    wanted = letters.lower().rstrip("s") if letters[-1:] == "s" and letters[:-1].isupper() else letters.lower()
    initials = [(i, w[0].lower()) for i, w in enumerate(words) if w[:1].isalpha() and w.lower() not in _LONG_FORM_GLUE]
    if len(initials) < len(wanted) or "".join(c for _, c in initials[-len(wanted):]) != wanted:
        return None
    return initials[-len(wanted)][0]


#: A letter and a count in an acronym: ``GS2`` for Generative Subgame Solving, ``A3C`` for
#: Asynchronous Advantage Actor-Critic.
_REPEATED = re.compile(r"([A-Za-z])([2-4])")


#: Digits that acronyms write for words: ``L2M`` for Learning-to-Modulate, ``G4C`` for Games for Code.
_DIGIT_WORDS = {"to": "2", "two": "2", "for": "4", "four": "4"}


def _long_form_start(short: str, words: list[str]) -> int | None:
    letters = [c.lower() for c in short.rstrip("s") if c.isalnum()] or [short[0].lower()]
    text = " ".join(words).lower()
    s_index = len(letters) - 1
    l_index = len(text) - 1
    while s_index >= 0:
        char = letters[s_index]
        while l_index >= 0 and (
            text[l_index] != char
            or (s_index == 0 and l_index > 0 and text[l_index - 1].isalnum())
        ):
            l_index -= 1
        if l_index < 0:
            return None
        l_index -= 1
        s_index -= 1
    start_char = text.rfind(" ", 0, l_index + 1) + 1
    first_word = text[:start_char].count(" ")
    return first_word if start_char == 0 or text[start_char - 1] == " " else None


def _spelled_inside(short: str, word: str) -> bool:
    """One word whose capitals and digits are the acronym: ``State2Explanation (S2E)``,
    ``Cell2Sentence (C2S)``; not ``Zorbnet (ZN)``.

    >>> _spelled_inside("S2E", "State2Explanation"), _spelled_inside("ZN", "Zorbnet")
    (True, False)
    """
    marks = "".join(c for c in word if c.isupper() or c.isdigit())
    return len(marks) >= 2 and marks.lower() == "".join(c for c in short.rstrip("s") if c.isalnum()).lower()


def _acronym_like(word: str, short: str) -> bool:
    """``WAEs`` in ``structural uses of WAEs, called StrWAEs``: an acronym (or a piece of the
    defined one) inside a long form means it is not one."""
    core = word[:-1] if word.endswith("s") else word
    if len(core) < 2:
        return False
    return core.isupper() or (sum(c.isupper() for c in word) >= 2 and word.lower() in short.lower())


def _in_noun_phrase(token) -> bool:
    """A word that can belong to a long form: not punctuation but hyphens and slashes, not a
    determiner, not a finite verb (``we propose a ...`` starts no long form)."""
    if token.text in ("-", "/"):
        return True
    return token.is_alpha and token.lower_ not in _DETERMINERS and token.tag_ not in ("VB", "VBD", "VBP", "VBZ", "MD")


def _could_be_name(text: str) -> bool:
    """``Zorb``: one capitalised word of three letters or more, not ``Table`` or ``Appendix``."""
    return not (
        " " in text
        or not text[:1].isupper()
        or sum(c.isalpha() for c in text) < 3
        or text.lower() in _NOT_DEFINITIONS
    )


def _continues_phrase(doc: Doc, first: int) -> bool:
    """The token before ``doc[first]`` belongs to the noun phrase ending there: an adjective or
    noun, a joined hyphen, or a joined participle (``first-hitting``, ``graph-based``)."""
    return (
        doc[first - 1].pos_ in ("ADJ", "NOUN", "PROPN")
        or (doc[first - 1].text == "-" and doc[first - 1].whitespace_ == "")
        or (doc[first].text == "-" and doc[first - 1].whitespace_ == "" and doc[first - 1].is_alpha)
        or (doc[first - 1].tag_ in ("VBN", "VBG") and (doc[first - 1].whitespace_ == "" or doc[first - 2].text == "-"))
    )


@Language.factory(
    "kg_abbreviations",
    assigns=["doc._.kg_abbreviations"],
    default_config={"max_long_form_words": 10, "catalogue_key": "kg_catalogue",
                    "vocabulary": {"@misc": "kg.vocabulary.v1"}},
)
def make_abbreviation_detector(nlp: Language, name: str, max_long_form_words: int, catalogue_key: str,
                               vocabulary: Vocabulary):
    return AbbreviationDetector(max_long_form_words=max_long_form_words, catalogue_key=catalogue_key,
                                vocabulary=vocabulary)


class AbbreviationDetector:
    def __init__(self, *, max_long_form_words: int = 10, catalogue_key: str = "kg_catalogue",
                 vocabulary: Vocabulary | None = None) -> None:
        self.max_long_form_words = max_long_form_words
        self.catalogue_key = catalogue_key
        vocabulary = vocabulary or default_vocabulary()
        self.naming_words = vocabulary.naming_words
        self.generic_heads = vocabulary.generic_heads
        self.generic_words = vocabulary.generic_modifiers | vocabulary.generic_heads

    def __call__(self, doc: Doc) -> Doc:
        found: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        sentences = doc.has_annotation("SENT_START")  # once: spaCy's check reads the whole doc
        for open_paren in (t for t in doc if t.text == "("):
            definition = self._parenthesised(doc, open_paren.i, sentences)
            if definition and (definition[0], definition[1]) not in found:
                found[(definition[0], definition[1])] = definition
        for definition in self._bold_letters(doc):
            found.setdefault((definition[0], definition[1]), definition)
        for naming in (t for t in doc if t.lower_ in self.naming_words):  # after bold letters, which are surer
            definition = self._named(doc, naming.i, sentences)
            if definition:
                found.setdefault((definition[0], definition[1]), definition)
        doc._.kg_abbreviations = sorted(found.values())
        return doc

    def _parenthesised(self, doc: Doc, i: int, sentences: bool) -> tuple[int, int, int, int] | None:
        close = next((t.i for t in doc[i + 1 : i + 14] if t.text == ")"), None)
        if close is None or close == i + 1:
            return None
        inner = doc[i + 1 : close]
        sent_start = doc[i].sent.start if sentences else 0
        if len(inner) <= 3 and is_short_form(inner.text.replace(" ", "")):
            limit = min(len(inner.text) + 5, len(inner.text) * 2, self.max_long_form_words)
            words = doc[max(sent_start, i - limit) : i]
            bracket = max((t.i for t in words if t.text in "()[]"), default=None)
            if bracket is not None:  # a long form does not reach back across another parenthesis
                words = doc[bracket + 1 : i]
            long_span = self._match(inner.text, words)
            if long_span is not None:
                return (inner.start_char, inner.end_char, long_span.start_char, long_span.end_char)
            if self._catalogued(doc, inner):
                return None  # "a large language model (GPT-4)": an example of the class, not its name
            return self._named_in_parentheses(doc, i, inner)
        elif i > 0 and is_short_form(doc[i - 1].text) and len(inner) > 1 and not self._a_list(doc, inner):
            long_span = self._match(doc[i - 1].text, inner)
            if long_span is not None and long_span.end == inner.end:
                short = doc[i - 1]
                return (short.idx, short.idx + len(short), long_span.start_char, long_span.end_char)
        return None

    def _named(self, doc: Doc, i: int, sentences: bool) -> tuple[int, int, int, int] | None:
        """``a single-loop variance-reduced gradient estimator, dubbed SILVER``: an acronym after a
        naming word, whose letters spell the words just before it. Stricter than parentheses,
        since nothing marks the long form's start: the words hold no other acronym, no
        punctuation but hyphens, and hardly more words than the acronym has letters."""
        at = i + 1 + (i + 2 < len(doc) and doc[i + 1].lower_ == "as")  # "abbreviated as"
        if at >= len(doc) or not self._named_acronym(doc, at):
            return None
        short = doc[at]
        end = i - 1 if i > 0 and doc[i - 1].text == "," else i
        first = end
        sent_start = doc[i].sent.start if sentences else 0
        while first > max(sent_start, end - self.max_long_form_words) and _in_noun_phrase(doc[first - 1]):
            first -= 1
        long_span = self._match(short.text, doc[first:end])
        if long_span is None:
            return None
        letters = sum(c.isalnum() for c in short.text.rstrip("s"))
        words = [t for t in long_span if t.is_alpha and t.lower_ not in _LONG_FORM_GLUE]
        if len(words) > letters + 1 or any(_acronym_like(t.text, short.text) for t in long_span):
            return None
        return (short.idx, short.idx + len(short), long_span.start_char, long_span.end_char)

    def _named_acronym(self, doc: Doc, at: int) -> bool:
        """``SILVER``, ``BlobGEN``: a whole word of two capitals or more, in no catalogue (not
        ``Sparse`` of ``Sparse-IFT``, nor ``BERT``)."""
        token = doc[at]
        joined = not token.whitespace_ and at + 1 < len(doc) and doc[at + 1].text == "-"
        # a blend of the long form's words may be longer than an acronym (``PromptRestorer``)
        short = is_short_form(token.text) or (len(token.text) <= 24 and token.is_alpha and token.text[0].isupper())
        return (not joined and short and sum(c.isupper() for c in token.text) >= 2
                and not self._catalogued(doc, doc[at : at + 1]))

    def _a_list(self, doc: Doc, inner: Span) -> bool:
        """``LLMs (Llama-2, Mistral, GPT-4)``: examples of the class, not its long form."""
        return any(t.text in (",", ";") for t in inner) or any(
            inner.start <= m.start and m.end <= inner.end for m in doc.spans.get(self.catalogue_key, ())
        )

    def _catalogued(self, doc: Doc, inner: Span) -> bool:
        """``inner`` is (or lies in) a catalogue match: a known thing, so not a name given here."""
        return any(m.start <= inner.start and inner.end <= m.end
                   for m in doc.spans.get(self.catalogue_key, ()))

    def _named_in_parentheses(self, doc: Doc, i: int, inner: Span) -> tuple[int, int, int, int] | None:
        """``first-hitting sampler (Zorb)``: a name in parentheses after a noun phrase names it,
        even when its letters do not spell the phrase (needs part-of-speech tags); not after a
        phrase of generic words only (``a state-of-the-art method (TRADES)``: an example)."""
        if not doc.has_annotation("TAG") or not _could_be_name(inner.text):
            return None
        first = i
        sent_start = doc[i].sent.start
        while first > sent_start and i - first < 8 and _continues_phrase(doc, first):
            first -= 1
        while first < i and doc[first].text == "-":
            first += 1
        if len([t for t in doc[first:i] if t.is_alpha]) < 2 or all(
                word in self.generic_words or word.removesuffix("s") in self.generic_heads
                for word in doc[first:i].text.lower().split()):
            return None
        return (inner.start_char, inner.end_char, doc[first].idx, doc[i - 1].idx + len(doc[i - 1]))

    @staticmethod
    def _match(short: str, words: Span) -> Span | None:
        tokens = [t for t in words if not t.is_punct or t.text in "-/"]
        if not tokens:
            return None
        texts = [t.text for t in words]
        first = schwartz_hearst_long_form(short, texts)
        if first is None:
            return None
        long_span = words[first:]
        while len(long_span) > 1 and (long_span[-1].is_punct or long_span[-1].text in ("'s", "’s")):
            long_span = long_span[:-1]
        if len(long_span) < 1 or long_span.text.lower() == short.lower():
            return None
        if len([t for t in long_span if t.is_alpha]) < 2 and "-" not in long_span.text and not _spelled_inside(
                short, long_span.text):
            return None
        return long_span

    @staticmethod
    def _bold_letters(doc: Doc):
        """Acronyms spelled by emphasised letters, e.g. ``**t**wo-step ... **r**isk``."""
        letters = [(s, e) for s, e, kind in doc._.kg_emphasis if 1 <= e - s <= 2 and kind != "quoted"]
        if not letters:
            return
        text = doc.text  # once: spaCy builds it anew on each access
        tokens: dict[str, list] = {}  # lower-case text -> tokens, so each acronym is one lookup
        for token in doc:
            tokens.setdefault(token.lower_, []).append(token)
        run: list[tuple[int, int]] = []
        for span in letters + [(10**9, 10**9)]:
            if run and span[0] - run[-1][1] > 40:
                if len(run) >= 2:
                    acronym = "".join(text[s:e] for s, e in run)
                    start, end = run[0][0], run[-1][1]
                    yield from AbbreviationDetector._define(doc, tokens, acronym, start, end)
                run = []
            run.append(span)

    @staticmethod
    def _define(doc: Doc, tokens: dict[str, list], acronym: str, start: int, end: int):
        long_span = doc.char_span(start, end, alignment_mode="expand")
        if long_span is None:
            return
        for token in tokens.get(acronym.lower(), ()):
            if not (start <= token.idx < end):
                yield (token.idx, token.idx + len(token), long_span.start_char, long_span.end_char)
                return
