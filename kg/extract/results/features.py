"""Step 2: what the learned is-it-a-result decision sees of a candidate.

The shipped model (``kg/extract/models/results.npz``) was fitted on these strings, in this
order: a change to them is a change to the model's input.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.results.candidates import Candidate, _tokens
from kg.extract.results.values import parse_value
from kg.extract.results.words import _WE
from kg.extract.sentences import sentence_words

_NOT_RESULT_WORDS = frozenset("parameters parameter params data samples examples labels layers tokens".split())


def candidate_features(doc: Doc, sent: Span, entities: list[Span], cand: Candidate,
                       position: str) -> list[str]:
    """What the is-it-a-result decision sees: the value's shape and the words around it."""
    value = _tokens(doc, cand.start, cand.end)
    feats = _shape_features(cand, position)
    if value is None:
        return feats
    before = [t.lower_ for t in doc[max(sent.start, value.start - 4):value.start]]
    after = [t.lower_ for t in doc[value.end:min(sent.end, value.end + 4)]]
    return feats + _word_features(before, after, cand.kind) + _context_features(doc, sent, entities, value)


#: Words of a value that say it is a bound or an estimate (``up to 5%``, ``~3x``).
_APPROX_FEATURES = ("up to", "over", "more than", "around", "about", "at least", "on average", "nearly",
                    "average", "~", ">", "<", "less than")


def _shape_features(cand: Candidate, position: str) -> list[str]:
    """The value's own features: its kind, unit, bounds, size and the sentence's place in the text."""
    _, number, unit, delta = parse_value(cand.text, cand.kind)
    feats = [f"kind={cand.kind}", f"unit={unit}", f"delta={delta is not None}", f"pos={position}"]
    lower = cand.text.lower()
    feats += [f"approx={approx}" for approx in _APPROX_FEATURES if approx in lower]
    if number is not None:
        feats.append("big" if number > 100 else "decimal" if number != int(number) else "integer")
    return feats


def _word_features(before: list[str], after: list[str], kind: str) -> list[str]:
    """The words just before and after the value, alone, in pairs and with the value's kind."""
    feats = [f"b{i + 1}={word}" for i, word in enumerate(reversed(before))]
    feats += [f"a{i + 1}={word}" for i, word in enumerate(after)]
    if before:
        feats.append(f"b1|kind={before[-1]}|{kind}")
    if after:
        feats.append(f"a1|kind={after[0]}|{kind}")
    if len(after) > 1:
        feats.append(f"a12={after[0]} {after[1]}")
    if len(before) > 1:
        feats.append(f"b21={before[-2]} {before[-1]}")
    return feats


def _context_features(doc: Doc, sent: Span, entities: list[Span], value: Span) -> list[str]:
    """The sentence around the value: content words near it, entities near it and in the sentence,
    ``we``, a parenthesis before it and a counted quantity after it (``5% of the data``)."""
    window = doc[max(sent.start, value.start - 10):min(sent.end, value.end + 6)]
    feats = sorted({f"w={t.lower_}" for t in window if t.pos_ in ("VERB", "NOUN", "ADJ", "ADV")})
    near = [e for e in entities if -4 <= e.start - value.end <= 4 or -4 <= value.start - e.end <= 4]
    feats += sorted({f"near={e.label_}" for e in near})
    feats += sorted({f"in_sent={e.label_}" for e in entities})
    if not _WE.isdisjoint(sentence_words(sent)):
        feats.append("we")
    if value.start > sent.start and doc[value.start - 1].text in "([":
        feats.append("in_parens")
    if any(t.lower_ in _NOT_RESULT_WORDS for t in doc[value.end:min(sent.end, value.end + 3)]):
        feats.append("then_quantity")
    return feats
