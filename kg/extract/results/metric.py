"""What a value measures: a Metric entity bound to it, else the noun phrase it measures, found by
rules tried in order of trust (:data:`_METRIC_RULES`)."""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from kg.extract.results.direction import _change
from kg.extract.results.phrases import (
    _generic_head, _in_or_of, _measured_before, _name, _noun_after, _noun_phrase_ending, _noun_phrase_from,
    _past_short_form,
)
from kg.extract.results.stretches import _Stretch
from kg.extract.results.words import (
    _APPROX_WORDS, _CHANGE_NOUNS, _DOWN, _FINITE, _HIGHER_BETTER, _LOWER_BETTER, _METRIC_GLUE, _OUTPERFORM,
    _PREPOSITIONS, _UP,
)

#: Head nouns of a measured quantity the text may not name as a metric (``context length``).
_MEASURES = _LOWER_BETTER | _HIGHER_BETTER | frozenset(
    "length lengths horizon window capacity depth width resolution size".split())
_COMPARATIVES = frozenset("faster quicker fewer less lower higher more smaller larger better".split())
_FASTER = frozenset(("faster", "quicker"))
#: Head nouns of a measure a value can be a share of (``4.55% of its inference cost``).
_SHARED_MEASURES = _LOWER_BETTER | _HIGHER_BETTER | {"performance", "resources"}
#: Words that introduce examples of a noun phrase (``gains, namely 5% -> 45.3%``).
_NAMELY = ("namely", "i.e.", "e.g.", "e.g", "i.e", "such", "including")
#: Words between coordinated values (``83.1%, 84.3%, and 85.0%``).
_COORDINATING = frozenset((",", "and", "or", "/", "%", "respectively"))
#: Heads of a measure a clause's subject can name (``the solving rate of X is``).
_RATES = frozenset("rate rates score scores ratio performance".split())
#: Verbs of improving something by a margin (``S-CLIP improves CLIP by 10%``).
_IMPROVE = frozenset("improve improves improved improving boost boosts boosted boosting".split())
#: Words that open a clause inside a sentence (``we show that``, ``but``).
_CLAUSE_OPENERS = frozenset("that but while whereas".split())
#: The metric of a change over something, the measure unnamed (``outperforms X by 5%``).
IMPROVEMENT = "improvement"
#: Nouns that count what the phrase after their *of* names (``the number of parameters``).
_AMOUNTS = frozenset("number amount fraction proportion share percentage".split())
#: Words between a margin and its ``by`` (``by a margin of about 5%``).
_BY_MARGIN = _APPROX_WORDS | {"by", "a", "an", "average", "margin", "of"}


def _gap_ok(gap: Span) -> bool:
    """Words that may stand between a value and its metric: ``3.4% gain in AP``, ``91% pass@1``."""
    return all(t.text in "%-/" or t.lower_ in ("in", "of") or t.pos_ in ("ADJ", "NOUN", "PROPN", "NUM")
               for t in gap)


@dataclass(frozen=True)
class _Context:
    """A value in its sentence, as the metric rules see it, with the change it states."""

    doc: Doc
    sent: Span
    ents: list[Span]
    metrics: list[Span]
    stretch: _Stretch
    change: str | None

    def bound(self, metric: Span) -> tuple:
        """A Metric entity the value states."""
        return metric, _name(metric), self.change

    def named(self, phrase: Span | None) -> tuple | None:
        """A phrase the value measures, named by the Metric entity inside it if any."""
        if phrase is None:
            return None
        inside = next((m for m in self.metrics if m.start < phrase.end and phrase.start < m.end), None)
        if inside is None and phrase[-1].lower_ in _RATES:  # ``exact match (EM) score``: the metric's score
            inside = next((m for m in self.metrics if m.end <= phrase.start
                           and not _past_short_form(self.doc[m.end:phrase.start])), None)
        return inside, _name(inside) if inside is not None else _name(phrase), self.change


def _metric(doc: Doc, sent: Span, ents: list[Span], stretch: _Stretch):
    """(Metric entity or None, metric name or None, ``up``/``down`` if the value is a stated change):
    the first of :data:`_METRIC_RULES` that finds one."""
    metrics = [e for e in ents if e.label_ == "Metric"]
    context = _Context(doc, sent, ents, metrics, stretch, _change(doc, sent, stretch.value, stretch.left))
    for rule in _METRIC_RULES:
        found = rule(context)
        if found is not None:
            return found
    return None, None, context.change


def _metric_right_after(c: _Context) -> tuple | None:
    """``50.9 AP``, ``3.4% gain in AP``, ``91% pass@1 accuracy``: a Metric entity just after the value."""
    value = c.stretch.value
    for metric in c.metrics:
        if 0 <= metric.start - value.end <= 4 and _gap_ok(c.doc[value.end:metric.start]):
            return c.bound(metric)
    return None


def _metric_after_coordinated(c: _Context) -> tuple | None:
    """``achieve 83.1%, 84.3%, and 85.0% top-1 accuracy``: a Metric entity right after the last of
    the values coordinated with this one."""
    value = c.stretch.value
    for metric in c.metrics:
        gap = c.doc[value.end:metric.start]
        if value.end < metric.start <= c.stretch.reach and any(t.like_num for t in gap) and all(
                t.like_num or t.pos_ in ("NUM", "SYM") or t.lower_ in _COORDINATING for t in gap):
            return c.bound(metric)
    return None


def _comparative(c: _Context) -> tuple | None:
    """``2.45x faster inference time``, ``5.9x fewer parameters``, ``16x smaller in size``: the nouns
    after a comparative, or after its *in*; ``3x faster`` alone is a speed-up, ``13% more accurate
    verification`` the verification's accuracy."""
    doc, after = c.doc, c.stretch.value.end
    while after < c.sent.end and doc[after].pos_ == "ADV" and doc[after].lower_ not in _COMPARATIVES | _DIMENSIONS.keys():
        after += 1  # ``6.6x significantly faster``
    if after >= c.sent.end:
        return None
    if doc[after].lower_ not in _COMPARATIVES:  # ``32 times longer than``: the length
        dimension = _dimension(doc, c.sent, after)
        if dimension is None or _noun_phrase_from(doc, c.sent, after + 1) is not None:
            return None
        return None, dimension, c.change
    faster = doc[after].lower_ in _FASTER
    phrase = _noun_phrase_from(doc, c.sent, after + 1)
    if phrase is None and after + 2 < c.sent.end and doc[after + 1].lower_ == "in":
        phrase = _noun_phrase_from(doc, c.sent, after + 2)
    named = c.named(phrase) if phrase is not None else None
    if named is not None and (not faster or named[0] is not None):
        quality = phrase[0]
        if named[0] is None and doc[after].lower_ in ("more", "less") and quality.pos_ == "ADJ" and quality.is_alpha \
                and len(phrase) > 1:  # ``13% more accurate human verification``: its accuracy
            return None, f"{_name(phrase[1:])} {_quality(quality.lower_)}", c.change
        return named
    if not faster:
        dimension = _dimension(doc, c.sent, after) if phrase is None else None
        return (None, dimension, c.change) if dimension else None
    return None, _what_is_faster(c, after, phrase) or "speedup", "up"


#: What a comparative of size compares (``60% smaller``).
_DIMENSIONS = {"smaller": "size", "larger": "size", "bigger": "size", "longer": "length", "shorter": "length",
               "cheaper": "cost"}


def _dimension(doc: Doc, sent: Span, at: int) -> str | None:
    """``60% smaller``: size; ``two orders of magnitude more accurate``: accuracy; ``23% more robust``:
    robustness: what a comparative with no noun after it compares."""
    word = doc[at].lower_
    if word in _DIMENSIONS:
        return _DIMENSIONS[word]
    if word in ("more", "less") and at + 1 < sent.end and doc[at + 1].pos_ == "ADJ" and doc[at + 1].is_alpha:
        after = [t.lower_ for t in doc[at + 2:min(sent.end, at + 6)] if t.text != ","]
        if after[:3] == ["in", "terms", "of"]:
            return None  # ``3x more efficient, in terms of integration steps``: the measure named after
        return _quality(doc[at + 1].lower_)
    return None


def _quality(adjective: str) -> str:
    """The noun of a quality: ``accurate`` -> ``accuracy``, ``efficient`` -> ``efficiency``, ``stable`` ->
    ``stability``, ``robust`` -> ``robustness`` (the pipeline has no lemmatiser or lexicon of these)."""
    if adjective.endswith(("ate", "ent")):
        return adjective[:-2] + "cy" if adjective.endswith("ate") else adjective[:-1] + "cy"
    if adjective.endswith("ant"):
        return adjective[:-1] + "ce"
    if adjective.endswith("ble"):
        return adjective[:-3] + "bility"
    if adjective.endswith("al"):
        return adjective + "ity"
    if adjective.endswith("e") and not adjective.endswith("ive"):
        return adjective[:-1] + "ity"
    if adjective.endswith("y"):
        return adjective[:-1] + "iness"
    return adjective + "ness"


def _what_is_faster(c: _Context, faster: int, phrase: Span | None) -> str | None:
    """``5.43x faster inference``, ``faster to train``, ``training 3x faster``, ``training speeds
    100-fold faster``: the speed of the activity the sentence names (``inference speed``);
    none for a plain ``3x faster``, ``runs 3x faster``: a speed-up."""
    doc, value = c.doc, c.stretch.value
    if phrase is not None and phrase.start == faster + 1:
        head = phrase[-1]
        if head.lower_ in _MEASURES:
            return _name(phrase)  # ``faster running time``
        # an activity, not things (``yields 2x faster models``)
        return f"{_name(phrase)} speed" if head.tag_ in ("NN", "VBG") else None
    if faster + 2 < c.sent.end and doc[faster + 1].lower_ in ("at", "to", "in"):
        done = doc[faster + 2]  # ``faster to train``, ``faster at inference``
        if done.pos_ == "VERB" or done.tag_ == "NN":
            return f"{_activity(done)} speed"
    before = value.start - 1
    if before > c.sent.start and doc[before].lower_ in ("speed", "speeds"):
        named = _noun_phrase_ending(doc, c.sent, before)  # ``training speeds 100-fold faster``
        return f"{_name(named)} speed" if named is not None else None
    if before - 1 > c.sent.start and doc[before].pos_ == "NOUN" and doc[before - 1].pos_ == "VERB":
        before -= 1  # ``generating samples 400x faster``
    if before >= c.sent.start and doc[before].pos_ == "VERB":
        activity = _activity(doc[before])
        return f"{activity} speed" if activity not in _PLAIN_MOTION else None
    return None


#: Activities whose speed is the speed-up itself (``runs 3x faster``, ``is 3x faster``), and verbs
#: that bring about what is faster rather than do it (``achieves 3x faster``).
_PLAIN_MOTION = frozenset((
    "running", "being", "performing", "working", "operating", "executing", "doing", "achieving", "obtaining",
    "yielding", "providing", "enabling", "offering", "showing", "demonstrating", "making", "becoming", "getting",
    "remaining", "reaching", "delivering", "bringing", "leading", "resulting", "giving", "attaining"))
#: Activities named by a noun other than their *-ing* form (``converges faster``: convergence speed).
_ACTIVITY_NOUNS = {"converging": "convergence", "inferring": "inference", "generating": "generation"}
_BE = frozenset(("is", "are", "was", "were", "be", "been", "being", "'s"))


def _activity(token: Token) -> str:
    """The noun of what a verb does (``trains`` -> ``training``, ``converges`` -> ``convergence``),
    a noun itself (``inference``): the pipeline has no lemmatiser, so from the word's form."""
    word = token.lower_
    if token.pos_ != "VERB":
        return word
    if word in _BE:
        return "being"
    if token.tag_ == "VBZ":
        word = word[:-2] if word.endswith(("ches", "shes", "sses", "xes", "zes")) else word[:-1]
    if token.tag_ != "VBG":
        if word.endswith("e") and not word.endswith("ee"):
            word = word[:-1]
        elif len(word) in (3, 4) and word[-1] not in "aeiouwxy" and word[-2] in "aeiou" and word[-3] not in "aeiou":
            word += word[-1]  # ``run`` -> ``running``
        word += "ing"
    return _ACTIVITY_NOUNS.get(word, word)


def _nouns_right_after(c: _Context) -> tuple | None:
    """``by 10.86% accuracy points``: a noun right after the value says what it measures; a lone
    change noun (``a 3.08% improvement``) waits for the rules after it (:func:`_lone_change`)."""
    phrase = _noun_after(c.doc, c.sent, c.stretch.value)
    return (None, phrase, c.change) if phrase and not _CHANGE_NOUNS.match(phrase) else None


def _lone_change(c: _Context) -> tuple | None:
    """``improves top-1 accuracy ..., with a 3.08% improvement``: no rule found what the change is
    of, so it is an improvement (a gain, a reduction)."""
    phrase = _noun_after(c.doc, c.sent, c.stretch.value)
    return (None, phrase, c.change) if phrase else None


def _after_of(c: _Context) -> Span | None:
    """The noun phrase after the *of* right after the value, past its determiners (``4.55% of its
    inference cost``)."""
    doc, sent, value = c.doc, c.sent, c.stretch.value
    if value.end + 1 >= sent.end or doc[value.end].lower_ != "of":
        return None
    i = value.end + 1
    while i < sent.end and doc[i].pos_ in ("DET", "PRON"):
        i += 1
    return _noun_phrase_from(doc, sent, i)


def _share_of(c: _Context) -> tuple | None:
    """``at 4.55% of its inference cost``: a share of a measure."""
    measure = _after_of(c)
    if measure is not None and (c.named(measure)[0] is not None or measure[-1].lower_ in _SHARED_MEASURES):
        return c.named(measure)
    return None


def _share_counted(c: _Context) -> tuple | None:
    """``can identify 67% of these incorrect claims``, ``solves 15% of ARC evaluation tasks``: when
    no rule found a measure, a percentage before *of* is a share of what the noun phrase counts."""
    doc, sent = c.doc, c.sent
    counted = _after_of(c) if c.stretch.value[-1].text == "%" else None
    while counted is not None and counted.end + 1 < sent.end and (
            doc[counted.end].text in ("'s", "’s") or (doc[counted.end].lower_ == "of" and counted[-1].lower_ in _AMOUNTS)):
        more = _noun_phrase_from(doc, sent, counted.end + 1)  # CTCNet's MACs, the number of parameters
        if more is None:
            break
        counted = doc[counted.start:more.end]
    return (None, f"% of {_name(counted)}", c.change) if counted is not None else None


def _speed_up(c: _Context) -> tuple | None:
    """``speeds up decoding by 1.8x``: a speed-up; ``accelerates the sampling speed by 10-fold``: the
    speed it names."""
    if not _sped_up(c.doc, c.sent, c.stretch.value):
        return None
    named = _measured_before(c.doc, c.sent, c.ents, c.stretch.value)
    if named is not None and named[-1].lower_ == "speed":
        return None, _name(named), "up"
    return None, "speedup", "up"


#: Words after a value that start another claim: what the value is compared with, a contrast.
_OTHER_CLAIM = frozenset("compared versus vs vs. whereas against".split())


def _metric_named_after(c: _Context) -> tuple | None:
    """``exceeds the prior SOTA by 4% and 2% for the success rate``, ``by 127% ... on median
    game score``: a Metric entity after the value (or the values coordinated with it),
    introduced by *on*, *for* or *in*, before any word that starts the claim the value is
    compared with (``compared to 0.61 for BLEU``)."""
    doc, value = c.doc, c.stretch.value
    for metric in c.metrics:
        if not value.end <= metric.start < c.stretch.reach:
            continue
        if any(t.lower_ in _OTHER_CLAIM for t in doc[value.end:metric.start]):
            break  # ``0.82 ..., compared to 0.61 for BLEU``: the metric of what it is compared with
        i = metric.start - 1
        while i > value.end and doc[i].pos_ == "DET":
            i -= 1
        if doc[i].lower_ in ("on", "for", "in"):
            return c.bound(metric)
    return None


def _changed_before(c: _Context) -> tuple | None:
    """``reduces question count by 20%``, ``improves accuracy by 5%``: what the value changes."""
    return c.named(_measured_before(c.doc, c.sent, c.ents, c.stretch.value))


def _metric_right_before(c: _Context) -> tuple | None:
    """``AP of 50.9``, ``BLEU 31.5``, ``accuracy: 91%``: a Metric entity just before the value."""
    value = c.stretch.value
    for metric in sorted(c.metrics, key=lambda m: -m.end):
        gap = c.doc[metric.end:value.start]
        if 0 <= value.start - metric.end <= 4 and all(t.lower_ in _METRIC_GLUE or t.text in ":=(" for t in gap):
            return c.bound(metric)
    return None


def _object_of_change(c: _Context) -> tuple | None:
    """``improves AP on LVIS rare classes ... from 31.2% to 44.6%``, ``extends the context length
    from 4K to 32K``: the object of the nearest change verb before the value."""
    doc, value = c.doc, c.stretch.value
    verb = next((i for i in range(value.start - 1, c.stretch.left - 1, -1) if doc[i].pos_ == "VERB" and (
        doc[i].lower_ in _UP or doc[i].lower_ in _DOWN or doc[i].lower_.startswith("extend"))), None)
    if verb is None:
        return None
    hit = next((m for m in c.metrics if 0 < m.start - verb <= 3), None)
    if hit is not None:
        return c.bound(hit)
    j = verb + 1
    while j < value.start and doc[j].pos_ == "DET":
        j += 1
    measure = _noun_phrase_from(doc, c.sent, j)
    return c.named(measure) if measure is not None and measure[-1].lower_ in _MEASURES else None


def _of_before(c: _Context) -> tuple | None:
    """``an average improvement of about 1.4%``, ``a mean human performance of 126.7%``; a margin
    waits for the rules after it (:func:`_margin`)."""
    found = _phrase_of(c)
    return found if found is not None and not _margin_phrase(found[1]) else None


def _margin(c: _Context) -> tuple | None:
    """``with a margin of 3.1% over X``: no rule found what the margin is of."""
    found = _phrase_of(c)
    return found if found is not None and _margin_phrase(found[1]) else None


def _phrase_of(c: _Context) -> tuple | None:
    """The phrase before *of* right before the value, unless it names what is compared."""
    doc, sent = c.doc, c.sent
    i = c.stretch.value.start - 1
    while i > sent.start and doc[i].lower_ in _APPROX_WORDS:
        i -= 1
    if i <= sent.start or doc[i].lower_ != "of":
        return None
    found = c.named(_noun_phrase_ending(doc, sent, i))
    return found if found is not None and not _generic_head(found[1]) else None


def _margin_phrase(name: str) -> bool:
    return name.lower().split()[-1] in ("margin", "margins")


def _in_terms_of(c: _Context) -> tuple | None:
    """``by 2.4% in terms of F1-score``, ``in terms of both faithfulness and fluency``: the Metric
    entity, else the noun phrase, after *in terms of*."""
    doc = c.doc
    for i in range(c.stretch.value.end, c.stretch.reach - 2):
        if doc[i].lower_ == "terms" and doc[i - 1].lower_ == "in" and doc[i + 1].lower_ == "of":
            j = i + 2
            while j < c.stretch.reach and (doc[j].pos_ == "DET" or doc[j].lower_ in ("both", "either")):
                j += 1
            hit = next((m for m in c.metrics if m.start == j), None)
            if hit is not None:
                return c.bound(hit)
            found = c.named(_noun_phrase_from(doc, c.sent, j))
            return found if found is not None and not _generic_head(found[1]) else None
    return None


def _illustrated(c: _Context) -> tuple | None:
    """``large performance gains, namely 5% -> 45.3%``: the noun phrase the values illustrate
    (``gains with Best-of-N, namely``: the phrase before ``with``)."""
    doc, sent, value = c.doc, c.sent, c.stretch.value
    i = value.start - 1
    while i > c.stretch.left and (doc[i].lower_ in _NAMELY or doc[i].lower_ == "as" or doc[i].text in ",:("):
        i -= 1
    if i >= value.start - 1 or not any(t.lower_ in _NAMELY for t in doc[i + 1:value.start]):
        return None
    inside = next((e for e in c.ents if e.start <= i < e.end), None)
    if inside is not None and inside.start > sent.start and doc[inside.start - 1].lower_ in _PREPOSITIONS:
        i = inside.start - 2
    phrase = _noun_phrase_ending(doc, sent, i + 1)
    if phrase is None:
        return None
    core = [t for t in phrase if not _CHANGE_NOUNS.match(t.text)]
    if core and core[-1].pos_ in ("NOUN", "PROPN") and not _generic_head(core[-1].text):
        return c.named(doc[core[0].i:core[-1].i + 1])
    return None


def _outperforms_by(c: _Context) -> tuple | None:
    """``outperforms X by 5%``, ``improves X by 5%``: an improvement over X."""
    doc, value, left = c.doc, c.stretch.value, c.stretch.left
    i = value.start - 1
    while i > left and doc[i].lower_ in _BY_MARGIN:
        i -= 1
    by = doc[value.start - 1].lower_ in ("by", "of") or any(t.lower_ == "by" for t in doc[i:value.start])
    verb = next((j for j in range(i, left - 1, -1) if doc[j].lower_ in _OUTPERFORM or doc[j].lower_ in _IMPROVE),
                None)
    if not by or verb is None:
        return None
    compared = [m for m in c.metrics if verb < m.start and m.end <= i + 1]
    if compared:  # ``outperforms the previous state-of-the-art top-1 accuracy by 2.5%``
        return c.bound(compared[-1])
    before = [m for m in c.metrics if c.sent.start <= m.start and m.end <= verb]
    if before and len({m.text.lower() for m in before}) == 1:  # ``For zero-shot accuracy, X outperforms Y by 8%``
        return c.bound(before[-1])
    return None, IMPROVEMENT, "up"  # ``improves CLIP by 10%``, the measure unnamed


def _measure_after(c: _Context) -> tuple | None:
    """``by 29% in accumulated reward``, ``by ~20% absolute on average in task performance``: the
    measure named after the value (a Dataset or Task after *on* or *in* is where, not what)."""
    doc, value = c.doc, c.stretch.value
    i = value.end
    while i < c.stretch.reach and (doc[i].lower_ in ("absolute", "relative", "average", "points", "point") or (
            doc[i].lower_ == "on" and i + 1 < c.stretch.reach and doc[i + 1].lower_ == "average")):
        i += 1
    if i >= c.stretch.reach or doc[i].lower_ not in ("in", "on"):
        return None
    j = i + 1
    while j < c.stretch.reach and doc[j].pos_ == "DET":
        j += 1
    if j >= c.stretch.reach:
        return None
    described = j + 1 if doc[j].tag_ in ("VBN", "VBG") else j  # ``accumulated reward``
    phrase = _noun_phrase_from(doc, c.sent, described)
    if phrase is not None:
        phrase = doc[j:phrase.end]
    if phrase is None or any(e.start < phrase.end and phrase.start < e.end and e.label_ != "Metric" for e in c.ents):
        return None
    if c.named(phrase)[0] is not None or phrase[-1].lower_ in _MEASURES | _RATES:
        return c.named(phrase)
    return None


def _subject_of_clause(c: _Context) -> tuple | None:
    """``the average improvement of X is 7%``, ``the solving rate of X outperforms Y by 9%``, ``the
    increase in certified accuracy is up to 6.4%``: the measure the clause's subject names (the
    clause nearest the value: ``we estimate that human performance plateaus near 90%``)."""
    doc, value = c.doc, c.stretch.value
    verbs = [i for i in range(c.stretch.left, value.start)  # ``outperforms`` whatever its tag
             if doc[i].tag_ in _FINITE or doc[i].lower_ in _OUTPERFORM]
    if not verbs:
        return None
    verb = verbs[0]
    if len(verbs) > 1 and any(doc[j].lower_ in _CLAUSE_OPENERS for j in range(verbs[0] + 1, verbs[-1])):
        verb = verbs[-1]  # ``we estimate that human performance plateaus near 90%``
    i = max([c.stretch.left] + [j + 1 for j in range(c.stretch.left, verb)
                                if doc[j].text == "," or doc[j].lower_ in _CLAUSE_OPENERS])
    while i < verb and doc[i].pos_ in ("ADV", "PUNCT", "DET", "SCONJ", "CCONJ"):
        i += 1  # ``Specifically, the``
    end = i
    while end < verb and end - i < 5 and (doc[end].pos_ in ("NOUN", "PROPN", "ADJ") or doc[end].tag_ == "VBG"
                                          or doc[end].text == "-"):
        end += 1  # ``the solving rate``
    if end == i or doc[end - 1].pos_ != "NOUN":
        return None
    phrase = doc[i:end]
    if phrase.end < verb and doc[phrase.end].lower_ == "in":
        measured = _in_or_of(doc, c.sent, phrase.end)  # ``increase in certified accuracy``
        if measured:
            return None, measured, c.change
    head = phrase[-1]
    if c.named(phrase)[0] is not None or head.lower_ in _MEASURES | _RATES or _CHANGE_NOUNS.match(head.text):
        return c.named(phrase)
    return None


def _before_parenthesis(c: _Context) -> tuple | None:
    """``performance (1% - 2% improvements)``: the noun before the parenthesis."""
    doc, sent, value = c.doc, c.sent, c.stretch.value
    if value.start - 1 <= sent.start or doc[value.start - 1].text != "(":
        return None
    words = _noun_phrase_ending(doc, sent, value.start - 1)
    if words is None or (words.start > sent.start and (
            doc[words.start - 1].lower_ in _PREPOSITIONS or doc[words.start - 1].pos_ == "NUM")):
        return None
    if any(e.label_ != "Metric" and e.start < words.end and words.start < e.end for e in c.ents):
        return None  # ``CIFAR-10 (+3.88%)``: where the value was measured, not what
    return c.named(words)


def _before_colon(c: _Context) -> tuple | None:
    """``FID scores in line with the state of the art: 1.77 on CelebA, 1.93 on AFHQv2``: values
    listed after a colon measure the last Metric entity before it."""
    doc, sent, value = c.doc, c.sent, c.stretch.value
    i = value.start - 1
    while i > sent.start and doc[i].text != ":" and (doc[i].like_num or doc[i].lower_ in _COORDINATING | {"on", "for"}
                                                      or any(e.start <= i < e.end and e.label_ == "Dataset" for e in c.ents)):
        i -= 1
    if doc[i].text != ":":
        return None
    before = [m for m in c.metrics if sent.start <= m.start and m.end <= i]
    return c.bound(before[-1]) if before else None


#: How a value's metric is found, in order of trust; each rule returns ``(entity, name, change)`` or None.
_METRIC_RULES = (_metric_right_after, _metric_after_coordinated, _comparative, _nouns_right_after, _share_of,
                 _speed_up, _metric_named_after, _changed_before,
                 _metric_right_before, _object_of_change, _of_before, _in_terms_of, _illustrated, _subject_of_clause,
                 _measure_after, _outperforms_by, _before_parenthesis, _before_colon, _lone_change, _margin,
                 _share_counted)


def _sped_up(doc: Doc, sent: Span, value: Span) -> bool:
    """``speed up X by``, ``accelerates X by``, ``runs faster by``: the value is a speed-up."""
    i = value.start - 1
    while i > sent.start and doc[i].lower_ in _APPROX_WORDS | {"by", "a", "an", "factor", "of"}:
        if doc[i].lower_ == "by":
            if doc[i - 1].lower_ in _FASTER:
                return True
            window = doc[max(sent.start, i - 6):i]
            return any(t.lower_.startswith("accelerat") and t.pos_ == "VERB" for t in window) or any(
                t.lower_ in ("speeds", "speed", "speeding") and t.i + 1 < i and doc[t.i + 1].lower_ == "up"
                for t in window)
        i -= 1
    return False
