"""The learned choice among overlapping candidates: which extent of a name the annotation would take.

The rules propose overlapping names (``visual reinforcement learning`` around the catalogue's
``reinforcement learning``, ``OpenML-CC18 classification`` around ``OpenML-CC18``) and a fixed
order of strength settles them in favour of the stronger rule. A learned model
(``choice.npz``, :class:`~kg.extract.linear.LinearModel`) instead scores each candidate by how
likely it is a whole name, from what the entity decision looks at plus what overlaps it and
the words one has that the other lacks; the choice then takes the likeliest first.
"""

from __future__ import annotations

from bisect import bisect_left

from spacy.tokens import Doc, Span

from kg.extract.entities.candidate import PRIORITY_CATALOGUE, Candidate
from kg.extract.entities.features import (
    _bucket, _neighbour_features, _origin_features, _shape_features, _standing_features, _word_features,
)
from kg.extract.entities.shapes import is_name_like
from kg.extract.groups import IndexGroups
from kg.extract.lexicons import term_frequency
from kg.extract.linear import LinearModel
from kg.extract.vocabulary import Vocabulary
from kg.ids import name_key

__all__ = ["choice_features", "conflicting_features", "rank_candidates"]


def _overlapping(candidates: list[Candidate]) -> list[list[int]]:
    """For each candidate, the positions of the others of a different extent that share a token
    with it; a search among nearby starts, not a scan of all pairs."""
    order = sorted(range(len(candidates)), key=lambda i: candidates[i].start)
    starts = [candidates[i].start for i in order]
    longest = max((c.end - c.start for c in candidates), default=0)
    out = []
    for c in candidates:
        near = order[bisect_left(starts, c.start - longest):bisect_left(starts, c.end)]
        out.append([j for j in near if candidates[j].start < c.end and c.start < candidates[j].end
                    and (candidates[j].start, candidates[j].end) != (c.start, c.end)])
    return out


def _clusters(overlaps: list[list[int]]) -> list[int]:
    """The cluster of each candidate: candidates joined by overlaps, directly or through others."""
    groups = IndexGroups(len(overlaps))
    for i, others in enumerate(overlaps):
        for j in others:
            groups.union(i, j)
    return [groups.find(i) for i in range(len(overlaps))]


def _catalogued_then_described(doc: Doc, inner: Candidate, outer: Candidate) -> bool:
    """A catalogued dataset or model name opening a phrase of common words after it."""
    return (inner.priority == PRIORITY_CATALOGUE and bool(inner.kb_id) and inner.label in ("Dataset", "Model")
            and inner.start == outer.start and inner.end < outer.end
            and all(t.is_lower for t in doc[inner.end:outer.end] if t.is_alpha))


def _coined(doc: Doc, c: Candidate, vocabulary: Vocabulary) -> bool:
    """A name the paper coins: written as a name (``LSEnet``, ``AtSpeed-S``, ``Speculative RAG``,
    ``Fast and Forgetful Memory``), in no catalogue and unknown to the field's abstracts."""
    span = doc[c.start:c.end]
    if c.kb_id or term_frequency(span.text) > 0:
        return False
    return _written_as_one_name(span) or (len(span) == 1 and is_name_like(span.text, vocabulary))


def _written_as_one_name(span: Span) -> bool:
    """Every word but function words starts with a capital: ``Speculative RAG``, ``AtSpeed-S``,
    ``Fast and Forgetful Memory``; not ``goal-conditioned RL``."""
    words = [t for t in span if t.is_alpha and not t.is_stop]
    return bool(words) and all(t.text[:1].isupper() for t in words)


def _extra_features(doc: Doc, outer: Candidate, inner: Candidate, prefix: str) -> list[str]:
    """The words the longer of two nested names adds: the first of them before and after the
    shorter, their tag, and whether they are glued with a hyphen (``model-free``, ``goal-conditioned``)."""
    feats = []
    before, after = doc[outer.start:inner.start], doc[inner.end:outer.end]
    for side, words in (("before", before), ("after", after)):
        if not len(words):
            continue
        word = words[0] if side == "before" else words[-1]
        feats += [f"{prefix}_{side}={word.lower_}", f"{prefix}_{side}_tag={word.tag_}",
                  f"{prefix}_{side}_len={_bucket(len(words), (1, 2, 3))}"]
        if any(t.text == "-" for t in words) or any(not t.whitespace_ for t in words[:-1]):
            feats.append(f"{prefix}_{side}_glued")
        if any(t.is_upper or t.is_title for t in words if t.is_alpha):
            feats.append(f"{prefix}_{side}_capital")
    return feats


def _conflict_features(doc: Doc, c: Candidate, others: list[Candidate]) -> list[str]:
    """What overlaps the candidate: names inside it, names around it, names crossing it."""
    feats = [f"conflicts={_bucket(len({(o.start, o.end) for o in others}), (0, 1, 2))}"]
    for o in others:
        if c.start <= o.start and o.end <= c.end:
            feats += [f"contains={o.source}", f"contains={o.source}|{c.source}"]
            feats += _extra_features(doc, c, o, "adds")
        elif o.start <= c.start and c.end <= o.end:
            feats += [f"inside={o.source}", f"inside={o.source}|{c.source}"]
            feats += _extra_features(doc, o, c, "lacks")
        else:
            feats += [f"crosses={o.source}", f"crosses={o.source}|{c.source}"]
    return feats


def choice_features(doc: Doc, c: Candidate, same_name: list[Candidate], others: list[Candidate],
                    learned_at: dict[tuple[int, int], str | None], vocabulary: Vocabulary,
                    names: set[str]) -> list[str]:
    """The features of one candidate for the choice (``same_name``: every candidate with its name
    key, itself first; ``others``: those of another extent overlapping it; ``names``: every
    candidate's name key)."""
    span = doc[c.start:c.end]
    extents = {(o.start, o.end) for o in same_name}
    feats = [f"label={c.label}", f"tokens={_bucket(len(span), (1, 2, 3, 4))}",
             f"mentions={_bucket(len(extents), (1, 2, 4))}", f"priority={c.priority:g}",
             f"priority={c.priority:g}|{c.label}"]
    feats += _origin_features(same_name, learned_at)
    feats += _shape_features(span, vocabulary)
    feats += _word_features(span, c.label, vocabulary)
    feats += _standing_features(doc, same_name, vocabulary, names)
    feats += _neighbour_features(doc, c, c.label)
    feats += _conflict_features(doc, c, others)
    return sorted(set(feats))


def conflicting_features(doc: Doc, candidates: list[Candidate], learned: list[Candidate],
                         vocabulary: Vocabulary) -> list[tuple[Candidate, list[str]]]:
    """Each candidate of a conflict the learned choice settles, with its :func:`choice_features`.

    A candidate nothing overlaps is chosen whatever its score, so it gets none. Nor do the
    candidates of two kinds of conflict the rules settle by how the paper writes the name: around
    a name the paper coins, where the field's statistics know nothing of it (``Speculative RAG``
    around the catalogue's ``RAG``, ``AtSpeed-S`` in ``the AtSpeed-S optimization objective``),
    and a catalogued dataset or model followed by common words (``the HumanEval coding benchmark``)."""
    overlaps = _overlapping(candidates)
    if not any(overlaps):
        return []
    cluster = _clusters(overlaps)
    settled = {cluster[i] for i, c in enumerate(candidates) if overlaps[i] and (
        _coined(doc, c, vocabulary) or any(_catalogued_then_described(doc, c, candidates[j]) for j in overlaps[i]))}
    learned_at = {(c.start, c.end): c.label for c in learned}
    keys = [name_key(doc[c.start:c.end].text) for c in candidates]
    by_key: dict[str, list[Candidate]] = {}
    for key, c in zip(keys, candidates):
        by_key.setdefault(key, []).append(c)
    names = set(by_key)
    out = []
    for i, (key, c) in enumerate(zip(keys, candidates)):
        if overlaps[i] and cluster[i] not in settled:
            same_name = [c, *(o for o in by_key[key] if o is not c)]
            others = [candidates[j] for j in overlaps[i]]
            out.append((c, choice_features(doc, c, same_name, others, learned_at, vocabulary, names)))
    return out


def rank_candidates(doc: Doc, candidates: list[Candidate], learned: list[Candidate], model: LinearModel,
                    vocabulary: Vocabulary) -> None:
    """Set the ``score`` of each candidate of a conflict the learned choice settles: how likely it
    is a whole name (1 - P(none)), by a model that learnt from such candidates only."""
    none = model.classes.index("none")
    for c, feats in conflicting_features(doc, candidates, learned, vocabulary):
        c.score = 1.0 - float(model.probabilities(feats)[none])
