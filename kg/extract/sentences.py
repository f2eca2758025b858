"""Sentences the rules can afford: at most ``max_tokens`` tokens each, found in log time.

Most rules look at a whole sentence for each entity or value they consider
(its words, the entities in it, pairs of them). On an abstract without
sentence punctuation the sentence splitter finds one sentence of tens of
thousands of tokens, and that work grows with the square of the text (a
100k-character abstract ran past ten minutes). So this component, right after
the sentence splitter:

* cuts a sentence longer than ``max_tokens`` into pieces of at most that many
  tokens. Real sentences are far shorter (the longest in the example
  abstracts has 84 tokens) and are never touched;
* answers ``token.sent`` and ``span.sent`` from an index of sentence starts.
  spaCy's own lookup first checks that the doc has sentence boundaries by
  copying every token, so each call costs the length of the whole text.

:func:`spans_by_sentence` groups spans by sentence in one pass, for the same reason, and
:func:`sentence_words` reads a sentence's words once per document, however many entities
or values ask for them.
Components after this one must not move sentence boundaries (none does).

Examples
--------
>>> import spacy
>>> nlp = spacy.blank("en")
>>> nlp.add_pipe("sentencizer")  # doctest: +ELLIPSIS
<...>
>>> limit = nlp.add_pipe("kg_sentence_limit", config={"max_tokens": 3})
>>> doc = nlp("one two three four five six seven. eight nine.")
>>> [s.text for s in doc.sents]
['one two three', 'four five six', 'seven.', 'eight nine.']
>>> doc[4].sent.text
'four five six'
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.tokens import Doc, Span, Token

__all__ = ["SentenceLimit", "doc_words", "sentence_words", "spans_by_sentence"]

_WORDS = "kg_sentence_words"


@Language.factory(
    "kg_sentence_limit",
    assigns=["token.is_sent_start"],
    requires=["token.is_sent_start"],
    default_config={"max_tokens": 200},
)
def make_sentence_limit(nlp: Language, name: str, max_tokens: int):
    return SentenceLimit(max_tokens=max_tokens)


class SentenceLimit:
    def __init__(self, *, max_tokens: int) -> None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, not {max_tokens}")
        self.max_tokens = max_tokens

    def __call__(self, doc: Doc) -> Doc:
        # one array in, one out: each write to token.is_sent_start would scan the whole doc
        marks = doc.to_array(SENT_START)
        starts: list[int] = []
        cut = False
        for i, mark in enumerate(marks.tolist()):
            if i == 0 or mark == 1:
                starts.append(i)
            elif i - starts[-1] >= self.max_tokens:
                starts.append(i)
                marks[i] = 1
                cut = True
        if cut:
            doc.from_array([SENT_START], marks.reshape(-1, 1))
        ends = starts[1:] + [len(doc)]

        def sentence(span: Span) -> Span:
            i = max(bisect_right(starts, span.start) - 1, 0)
            return span.doc[starts[i] : ends[i]]

        def token_sentence(token: Token) -> Span:
            return sentence(token.doc[token.i : token.i + 1])

        if len(doc):
            doc.user_span_hooks["sent"] = sentence
            doc.user_token_hooks["sent"] = token_sentence
        return doc


def spans_by_sentence(doc: Doc, spans: Iterable[Span]) -> list[tuple[Span, list[Span]]]:
    """Each sentence of ``doc`` with the spans inside it, in their given order.

    One pass over the spans, not one per sentence, so a text of many short
    sentences stays linear.
    """
    sents = list(doc.sents)
    starts = [s.start for s in sents]
    inside: list[list[Span]] = [[] for _ in sents]
    for span in spans:
        i = bisect_right(starts, span.start) - 1
        if i >= 0 and span.end <= sents[i].end:
            inside[i].append(span)
    return list(zip(sents, inside))


def sentence_words(sent: Span) -> frozenset[str]:
    """The lower-cased words of ``sent`` (any span), read from its document once and kept in
    ``doc.user_data``: the rules ask for a sentence's words once per entity or value in it.

    >>> import spacy
    >>> doc = spacy.blank("en")("We propose Zorb. It works.")
    >>> sorted(sentence_words(doc[0:4]))
    ['.', 'propose', 'we', 'zorb']
    """
    _, lowers, by_span = _word_cache(sent.doc)
    words = by_span.get((sent.start, sent.end))
    if words is None:
        words = by_span[(sent.start, sent.end)] = frozenset(lowers[sent.start:sent.end])
    return words


def doc_words(doc: Doc) -> list[str]:
    """Each token's lower-cased word, read once per document: a rule that scans every token for
    a few words reads this list and makes a spaCy ``Token`` only where it finds one.

    >>> import spacy
    >>> doc_words(spacy.blank("en")("We propose Zorb."))
    ['we', 'propose', 'zorb', '.']
    """
    return _word_cache(doc)[1]


def _word_cache(doc: Doc) -> tuple:
    cache = doc.user_data.get(_WORDS)
    if cache is None or cache[0] != id(doc):  # none yet, or another doc's (user data copied over)
        cache = doc.user_data[_WORDS] = (id(doc), [t.lower_ for t in doc], {})
    return cache
