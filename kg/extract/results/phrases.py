"""The noun phrases around a value that say what it measures (``77.3% training time``,
``reduces question count by 20%``), and the generic ones that say nothing (``the baselines``)."""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from kg.extract.results.words import (
    _ACTORS, _APPROX_WORDS, _BASELINE_BEFORE, _CHANGE_NOUNS, _DOWN, _HIGHER_BETTER, _LOWER_BETTER, _OUTPERFORM,
    _PREPOSITIONS, _UP,
)

_COUNT_NOUNS = frozenset("number amount fraction percentage share proportion count".split())
_GENERIC_HEADS = frozenset("result results method methods baseline baselines approach approaches model models "
                           "art work works competitor competitors technique techniques counterpart "
                           "counterparts state sota algorithm algorithms others".split())


def _generic_head(phrase: str) -> bool:
    """``the state-of-the-art methods``, ``the best published result``: what is compared, not a metric."""
    words = phrase.lower().split()
    return not words or words[-1] in _GENERIC_HEADS


def _noun_phrase_from(doc: Doc, sent: Span, i: int) -> Span | None:
    """The nouns starting at token ``i`` (``total model parameters``)."""
    end = i
    while end < sent.end and end - i < 5 and (doc[end].pos_ in ("NOUN", "PROPN", "ADJ") or doc[end].text == "-"
                                              or _in_compound(doc, end)):
        end += 1
    while end > i and doc[end - 1].pos_ == "ADJ":
        end -= 1
    return doc[i:end] if end > i and doc[end - 1].pos_ in ("NOUN", "PROPN") else None


def _in_compound(doc: Doc, i: int) -> bool:
    """Token ``i`` is joined by a hyphen to the word before or after it (``zero-shot``, ``top-1``)."""
    return _glued_to_hyphen(doc, i, len(doc)) or (i > 0 and doc[i - 1].text == "-" and not doc[i - 1].whitespace_)


def _past_short_form(tokens: Span) -> list[Token]:
    """The tokens after a name without the short form it defines there: ``exact match (EM) score``."""
    words = list(tokens)
    if len(words) >= 3 and words[0].text == "(" and words[2].text == ")" and any(c.isupper() for c in words[1].text):
        return words[3:]
    return words


def _name(span: Span) -> str:
    return " ".join(span.text.split())


def _noun_phrase_ending(doc: Doc, sent: Span, end: int) -> Span | None:
    first = end
    while first > sent.start and end - first < 5 and doc[first - 1].pos_ in ("NOUN", "PROPN", "ADJ"):
        first -= 1
    while first - 2 >= sent.start and doc[first - 1].text == "-" and not doc[first - 2].whitespace_ \
            and not doc[first - 1].whitespace_:
        first -= 2  # never from inside a compound: ``state-of-the-art score``, not ``art score``
    while first < end and doc[first].pos_ == "ADJ" and not _glued_to_hyphen(doc, first, end):
        first += 1
    return doc[first:end] if first < end else None


def _glued_to_hyphen(doc: Doc, i: int, end: int) -> bool:
    """Token ``i`` is the first part of a hyphenated compound (``long-range``)."""
    return i + 1 < end and doc[i + 1].text == "-" and not doc[i].whitespace_


def _noun_after(doc: Doc, sent: Span, value: Span) -> str | None:
    """``77.3% training time``, ``1.7x inference throughput speedup``, ``43% relative improvement``,
    ``3.4% gain in AP``: the nouns right after the value; a lone change noun (``increase``) names
    no metric."""
    words = _measure_words(doc[value.end:min(sent.end, value.end + 10)])
    if not words:
        return None
    text = " ".join(t.text for t in words).replace(" - ", "-")
    measured = _in_or_of(doc, sent, words[-1].i + 1)
    if measured:
        return measured
    core = [t for t in words if not _CHANGE_NOUNS.match(t.text)]
    if not core:
        return _singular(text)  # ``a 10% improvement``: an improvement, of what the text does not say
    if len(core) < len(words) and core[-1].pos_ in ("NOUN", "PROPN"):
        return " ".join(t.text for t in core if t.lower_ not in _QUALIFIERS) or text
    return text  # ``43% relative improvement``


#: Words after a value that end the phrase it measures (``5% on X``, ``5% than X``, ``5% and 7%``).
_PHRASE_ENDS = _PREPOSITIONS | {"than", "and", "or", "vs", "vs.", "versus"}
#: Words that qualify a change, not the measure (``43% relative improvement``).
_QUALIFIERS = ("relative", "absolute", "average", "overall")


#: Words of a measure whatever the tagger calls them (``198% mean human performance``, ``10x reduced
#: overhead``: *mean* read as a verb, *overhead* as an adverb).
_STATISTICS = frozenset(("mean", "median", "average"))
_MEASURE_NOUNS = _LOWER_BETTER | _HIGHER_BETTER | {"performance"}


def _measure_words(following: Span) -> list[Token]:
    """The nouns at the start of ``following`` (adjectives and participles inside), without the
    adjectives at the end and the units, participles and comparatives at the start
    (``25x reduced overhead``, ``5% higher accuracy``: the overhead, the accuracy)."""
    words = []
    for token in following:
        glued = bool(words) and words[-1].text == "-" and not words[-1].whitespace_  # ``end-to-end``
        if not glued and not _coordinated_adjective(token, words) and (
                token.lower_ in _PHRASE_ENDS or not _in_measure(token, words)):
            break
        words.append(token)
    while words and (words[-1].pos_ == "ADJ" or words[-1].text == "-" or words[-1].lower_ in _STATISTICS
                     or words[-1].lower_ in ("and", "or")):
        words.pop()
    while words and (words[0].tag_ in ("VBN", "VBD", "JJR") and len(words) > 1 or words[0].lower_ in ("%", "points", "point")
                     or not any(c.isalpha() for c in words[0].text)):
        words.pop(0)
    return words


def _in_measure(token: Token, words: list[Token]) -> bool:
    """Whether the token continues the nouns after a value: a noun, adjective or hyphen, a gerund
    after them (``inference time``, ``training``), a change participle first (``reduced``)."""
    return token.pos_ in ("NOUN", "PROPN", "ADJ") or token.text == "-" or (bool(words) and token.tag_ == "VBG") or (
        not words and token.tag_ in ("VBN", "VBD") and token.lower_ in _UP | _DOWN) or (
        token.lower_ in _MEASURE_NOUNS | _STATISTICS)


def _coordinated_adjective(token: Token, words: list[Token]) -> bool:
    """``3.88x online and total communication reduction``: adjectives joined by *and* or *or*."""
    return token.lower_ in ("and", "or") and bool(words) and words[-1].pos_ == "ADJ" and \
        token.i + 1 < len(token.doc) and token.doc[token.i + 1].pos_ == "ADJ"


def _singular(text: str) -> str:
    from kg.ids import singular_name

    return singular_name(text)


def _in_or_of(doc: Doc, sent: Span, i: int) -> str | None:
    """``gain in AP``: the noun phrase after ``in`` / ``of`` following a change noun; after ``on``
    only a measure (``improvement on mean precision``, not ``improvement on MS-COCO``)."""
    if i >= sent.end or doc[i].lower_ not in ("in", "of", "on") or not _CHANGE_NOUNS.match(doc[i - 1].text):
        return None
    words = []
    for token in doc[i + 1:min(sent.end, i + 6)]:
        # ``in certified accuracy``: a participle modifies the measure; ``in predicting labels`` is no measure
        participle = token.tag_ == "VBN" or (token.tag_ == "VBG" and bool(words))
        if token.pos_ in ("NOUN", "PROPN", "ADJ") or token.text == "-" or participle:
            words.append(token)
            continue
        if token.pos_ == "DET" and not words:
            continue
        break
    while words and (words[-1].pos_ == "ADJ" or words[-1].tag_ in ("VBN", "VBG")):
        words.pop()
    if doc[i].lower_ == "on" and (not words or words[-1].lower_ not in _HIGHER_BETTER | _LOWER_BETTER):
        return None
    return " ".join(t.text for t in words).replace(" - ", "-") or None


def _measured_before(doc: Doc, sent: Span, ents: list[Span], value: Span) -> Span | None:
    """``reduces KV cache memory usage by up to 75%``, ``reduces the WER of X by 6.3 points``: the
    noun phrase before *by* (the first of ``A of B``); none when it is what is compared
    (``outperforms the state-of-the-art methods by 5%``) or a place or means (``on hard datasets by 5%``)."""
    i = value.start - 1
    while i > sent.start and doc[i].lower_ in _BY_WORDS:
        if doc[i].lower_ == "by" and doc[i - 1].lower_ not in ("factor", "a"):
            return _measured_by(doc, sent, ents, i)
        i -= 1
    return None


#: Words between a value and the *by* before it (``by a factor of up to``).
_BY_WORDS = _APPROX_WORDS | {"by", "of", "a", "an", "the", "factor", "on", "average", "than", "more", "to", "up",
                              "relative", "absolute"}


def _measured_by(doc: Doc, sent: Span, ents: list[Span], by: int) -> Span | None:
    """The noun phrase before the *by* at token ``by``, none when it is what is compared
    (``outperforms X by``, ``improves Deformable DETR by``) or where (``the state of the art in
    ScienceWorld by 35%``: a dataset or task)."""
    phrase = _noun_phrase_ending(doc, sent, by)
    if phrase is None:
        return None
    phrase, first = _first_of(doc, sent, phrase)
    if _after_preposition(doc, sent, first):
        return None  # ``on easy datasets by 20%``, ``with 10,000 instances by 300 times``: where or with what
    if _compared(doc, sent, first) or _generic_head(phrase.text) or any(
            e.label_ in (*_ACTORS, "Dataset", "Task") and e.start < phrase.end <= e.end for e in ents):
        return None
    return phrase


def _after_preposition(doc: Doc, sent: Span, first: int) -> bool:
    """The phrase starting at token ``first``, past the words describing it (``easy``, ``10,000``,
    ``hard-coded``), is the object of a preposition other than *of*."""
    i = first - 1
    while i > sent.start and first - i <= 4 and (doc[i].pos_ in ("ADJ", "NUM") or doc[i].tag_ == "VBN" or doc[i].text == "-"):
        i -= 1
    return i >= sent.start and doc[i].lower_ in _PREPOSITIONS and doc[i].lower_ != "of"


def _compared(doc: Doc, sent: Span, first: int) -> bool:
    """The phrase starting at token ``first`` is what is compared: ``outperforms X``, ``than X``, past
    the words that describe X (``outperforms existing SOTA label-only X``)."""
    i = first - 1
    while i > sent.start and first - i <= 6 and (
            doc[i].pos_ in ("ADJ", "ADV", "NOUN", "PROPN", "DET", "NUM") or doc[i].tag_ == "VBG" or doc[i].text == "-") \
            and doc[i].lower_ not in _OUTPERFORM | _BASELINE_BEFORE:
        i -= 1
    return i >= sent.start and doc[i].lower_ in _OUTPERFORM | _BASELINE_BEFORE


def _first_of(doc: Doc, sent: Span, phrase: Span) -> tuple[Span, int]:
    """The phrase, or in ``A of phrase`` the A (``the WER of the model``; ``the number of steps``
    whole), with the token its determiners start at."""
    first = _determiners_before(doc, sent, phrase.start)
    counted = first
    while counted > sent.start and doc[counted - 1].pos_ == "NUM":
        counted -= 1  # ``on eight reasoning tasks``
    if counted > sent.start + 1 and doc[counted - 1].lower_ == "on":  # ``the accuracy on X``: X is a place
        head = _noun_phrase_ending(doc, sent, counted - 1)
        if head is not None:
            return head, _determiners_before(doc, sent, head.start)
    if first > sent.start + 1 and doc[first - 1].lower_ == "of":
        head = _noun_phrase_ending(doc, sent, first - 1)
        if head is not None and head.text.lower() in _COUNT_NOUNS:
            return doc[head.start:phrase.end], head.start
        if head is not None:
            return head, _determiners_before(doc, sent, head.start)
    return phrase, first


def _determiners_before(doc: Doc, sent: Span, start: int) -> int:
    """Where the phrase at token ``start`` begins with its determiners (``the``, ``a``)."""
    while start > sent.start and doc[start - 1].pos_ == "DET":
        start -= 1
    return start
