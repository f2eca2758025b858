"""Whose a result is and against whom: the Method or Model stating the value (subject) and the one
it is compared with (baseline)."""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.results.stretches import _Stretch
from kg.extract.results.words import _ACTORS, _BASELINE_BEFORE, _FINITE, _PREPOSITIONS, _SCORE_VERBS, _USING, _WE

#: Words opening a phrase a name stands in, not a clause it is the subject of (``unlike X``).
_PHRASE_OPENERS = _PREPOSITIONS | {"unlike", "beyond", "besides", "including", "except"}
_COMPARE_VERBS = frozenset("improves improve improving improved outperforms outperform outperforming "
                           "outperformed surpasses surpass surpassing beats beat beating exceeds exceeding".split())


def _baseline_marked(doc: Doc, sent: Span, ent: Span) -> bool:
    """``over X``, ``than X``, ``compared to the previous state-of-the-art X``, ``outperforms X``."""
    i = ent.start - 1
    while i >= sent.start and ent.start - i <= 8:
        word = doc[i].lower_
        if word in _BASELINE_BEFORE or word in _COMPARE_VERBS:
            return True
        if doc[i - 1].text == "-" or (i + 1 < ent.start and doc[i + 1].text == "-"):
            i -= 1  # inside ``state-of-the-art``
            continue
        if word in ("of", "for", "with", "on", "in", "using", "to") and not (
                i > sent.start and doc[i - 1].lower_ in ("compared", "comparing", "relative", "respect")):
            return False  # ``improves the accuracy of X``: X is not compared
        if _describes_the_baseline(doc, i, ent):
            i -= 1  # ``than existing X``, ``over competing X``
            continue
        if doc[i].pos_ in ("VERB", "AUX") or doc[i].text == ";" or word in ("while", "which", "that", "but"):
            return False
        i -= 1
    return False


def _describes_the_baseline(doc: Doc, i: int, ent: Span) -> bool:
    """``existing`` in ``than existing layer sampling approaches``: a participle that modifies the
    name after it (no verb of a clause), right after a comparison's word or an article."""
    token = doc[i]
    if token.tag_ not in ("VBG", "VBN") or i == 0:
        return False
    before, after = doc[i - 1], doc[i + 1]
    return (before.lower_ in _BASELINE_BEFORE or before.pos_ == "DET") and (
        after.i == ent.start or after.pos_ in ("ADJ", "NOUN", "PROPN"))


def _baseline(doc: Doc, sent: Span, ents: list[Span], stretch: _Stretch) -> Span | None:
    """The actor the value is compared against, in the value's stretch of the sentence."""
    value = stretch.value
    marked = [e for e in ents if e.label_ in _ACTORS and stretch.left <= e.start and e.end <= stretch.reach
              and _baseline_marked(doc, sent, e)
              and not (e.start >= value.end and any(t.tag_ in _FINITE for t in doc[value.end:e.start]))]
    if not marked:
        return None
    return min(marked, key=lambda e: min(abs(e.start - value.end), abs(value.start - e.end)))


def _subject(doc: Doc, sent: Span, ents: list[Span], stretch: _Stretch, previous: dict | None,
             main: Span | None) -> Span | None:
    """The actor stating the value as the subject of its clause (``X achieves``, ``X that reaches``),
    else the subject of the value before it in the sentence, else the paper's proposal."""
    value = stretch.value
    actors = [e for e in ents if e.label_ in _ACTORS and stretch.left <= e.start and e.end <= value.start]
    for actor in sorted(actors, key=lambda e: -e.start):
        between = doc[actor.end:value.start]
        if _in_phrase(doc, sent, actor, ents) and not _relative_clause(between):
            continue
        if _baseline_marked(doc, sent, actor) and not _relative_clause(between):
            continue
        if any(t.lower_ in _WE for t in between):
            break
        if any(t.tag_ in _FINITE for t in between):
            return _proposal_it_uses(doc, ents, actor, between, main) or _first_listed(doc, sent, actor, ents)
    # ``while X solved 4% of tasks, our method achieved 74%``: ours, not the value before's
    if previous is not None and not any(t.lower_ in _WE for t in doc[stretch.left:value.start]):
        return previous["_subject"]
    return main


def _first_listed(doc: Doc, sent: Span, actor: Span, ents: list[Span]) -> Span:
    """``our S-DQN and S-PPO agents outperform ...``: two names modifying one noun state the value
    together; it is filed under the first, as a reader cites it."""
    i = actor.start - 1
    if i <= sent.start or doc[i].lower_ not in ("and", "or") or actor.end >= sent.end or \
            doc[actor.end].pos_ != "NOUN":
        return actor
    return next((e for e in ents if e.end == i and e.start >= sent.start and e.label_ == actor.label_), actor)


def _proposal_it_uses(doc: Doc, ents: list[Span], actor: Span, between: Span, main: Span | None) -> Span | None:
    """``pre-training using Collage removes ...``, ``agents trained with RoboCLIP rewards reach ...``:
    the clause's subject runs the paper's proposal, whose result it states."""
    if main is None or main.label_ not in _ACTORS:
        return None
    verb = next(t.i for t in between if t.tag_ in _FINITE)
    name = main.text.lower()
    return next((e for e in ents if e.text.lower() == name and actor.end <= e.start and e.end <= verb
                 and e.start - actor.end <= 4 and doc[e.start - 1].lower_ in _USING), None)


def _owner(doc: Doc, ents: list[Span], stretch: _Stretch) -> Span | None:
    """``higher than EfficientZero's 194%``: the actor whose value it is, said with a possessive
    (a value of its own, not the subject of the values after it)."""
    start = stretch.value.start
    return next((e for e in ents if e.label_ in _ACTORS and e.end == start - 1 and e.start >= stretch.left
                 and doc[e.end].text in ("'s", "’s")), None)


def _in_phrase(doc: Doc, sent: Span, actor: Span, ents: list[Span]) -> bool:
    """The actor is inside a prepositional phrase (``with X``, ``on the X``, ``on Y and X``), not a
    clause's subject."""
    i = actor.start - 1
    while True:
        i = _before_modifiers(doc, sent, i)
        if i < sent.start or doc[i].lower_ not in ("and", "or", ",", "("):
            break
        if doc[i].text == "," and doc[i + 1].pos_ == "DET":
            break  # ``applying it to X, the Swin-B model achieves``: a clause's subject, not a listed name
        # ``on Y and X``, ``on Traveling Salesman Problem (TSP) and X``, ``with Y (X)``: X is in Y's phrase
        end = i if doc[i].text == "(" else _before_parentheses(doc, sent, i)
        listed = next((e for e in ents if e.end == end and e.start >= sent.start), None)
        if listed is None or (doc[i].text == "," and (listed.label_ in _ACTORS) != (actor.label_ in _ACTORS)):
            break  # ``On Zorbench, GPT-4 achieves``: the comma ends a phrase, it lists no other kind
        i, actor = listed.start - 1, listed
    return i >= sent.start and doc[i].lower_ in _PHRASE_OPENERS


def _before_modifiers(doc: Doc, sent: Span, i: int, limit: int = 3) -> int:
    """The index before the words modifying a name that ends after token ``i`` (``the``, ``our
    proposed``, ``off-the-shelf pre-trained``): up to ``limit`` words, a hyphenated compound
    counting as one, a participle as an adjective where a noun phrase holds it."""
    words = 0
    while i >= sent.start and words < limit:
        j = i
        while j - 2 >= sent.start and doc[j - 1].text == "-" and not doc[j - 1].whitespace_ \
                and not doc[j - 2].whitespace_:
            j -= 2  # ``off-the-shelf``: one word
        if j == i and doc[i].pos_ not in ("DET", "ADJ", "PRON") and not _participle_modifier(doc, sent, i):
            break
        i, words = j - 1, words + 1
    return i


def _participle_modifier(doc: Doc, sent: Span, i: int) -> bool:
    """``our proposed X``, ``with pretrained X``: a participle between a determiner, possessive or
    preposition and the name, not a verb of the clause (``outperforming X``)."""
    token = doc[i]
    if token.tag_ not in ("VBN", "VBG") or token.lower_ in _BASELINE_BEFORE or i == sent.start:
        return False
    before = doc[i - 1]
    return before.pos_ in ("DET", "PRON") or before.lower_ in _PHRASE_OPENERS


def _before_parentheses(doc: Doc, sent: Span, i: int) -> int:
    """The end of what stands before token ``i``, past a parenthesis closed right before it."""
    if i - 1 >= sent.start and doc[i - 1].text == ")":
        opening = next((j for j in range(i - 2, max(sent.start, i - 8) - 1, -1) if doc[j].text == "("), None)
        if opening is not None:
            return opening
    return i


def _relative_clause(between: Span) -> bool:
    """``GPT-4 that achieves 80%``: the value belongs to the actor right before it."""
    words = [t for t in between if t.text != ","]
    return len(words) > 1 and words[0].lower_ in ("that", "which", "who") and len(words) <= 4 and \
        any(t.lower_ in _SCORE_VERBS for t in words)
