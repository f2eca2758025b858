"""The learned decision's features: what speaks for and against a named candidate being an entity,
and of which type. The model ``entities.npz`` was trained on these strings: change one and it
must be retrained."""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.abbreviations import is_short_form
from kg.extract.entities.candidate import PRIORITY_CATALOGUE, Candidate
from kg.extract.entities.introduced import emphasized_spans
from kg.extract.entities.shapes import SIZE
from kg.extract.lexicons import term_frequency, term_key
from kg.extract.vocabulary import Vocabulary
from kg.ids import name_key


def candidate_groups(doc: Doc, chosen: list[Candidate]) -> dict[str, list[Candidate]]:
    """Chosen candidates by name (one entity of the paper per name key)."""
    groups: dict[str, list[Candidate]] = {}
    for c in chosen:
        groups.setdefault(name_key(doc[c.start:c.end].text), []).append(c)
    return groups


def _after_acronym(doc: Doc, start: int, end: int) -> int | None:
    """The token after a name's parenthesised acronym (``Marginal Ratio (MR) estimator``), or
    after the acronym itself (``(MR) estimator``); None when there is none."""
    if end + 3 < len(doc) and doc[end].text == "(" and doc[end + 2].text == ")":
        return end + 3
    if 0 < start and end + 1 < len(doc) and doc[start - 1].text == "(" and doc[end].text == ")":
        return end + 1
    return None


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    return next((str(e) for e in edges if n <= e), f">{edges[-1]}")


def is_variant(key: str, others: set[str]) -> bool:
    """``atspeed-s`` of ``atspeed``, ``rgib-ssl`` of ``rgib``: a name built on another name
    of the same text (name keys)."""
    return any(key.startswith(other + "-") for other in others if len(other) >= 3 and other != key)


def entity_features(doc: Doc, group: list[Candidate], learned_at: dict[tuple[int, int], str | None],
                    vocabulary: Vocabulary, names: set[str] = frozenset(), annotated=None) -> list[str]:
    """What speaks for and against one named candidate being an entity, and of which type
    (``learned_at``: the recogniser's labels by token extent; ``names``: the name keys of
    every candidate of the text; ``annotated``: the table of ``kg train-linear names``, whose
    ``get(term_key)`` gives (abstracts writing the name, abstracts annotating it, type) or None)."""
    first = group[0]
    span = doc[first.start:first.end]
    feats = [f"label={first.label}", f"tokens={_bucket(len(span), (1, 2, 3, 4))}",
             f"mentions={_bucket(len(group), (1, 2, 4))}"]
    feats += _origin_features(group, learned_at)
    feats += _shape_features(span, vocabulary)
    feats += _word_features(span, first.label, vocabulary)
    feats += _standing_features(doc, group, vocabulary, names)
    for c in group[:2]:
        feats += _neighbour_features(doc, c, first.label)
    if annotated is not None:
        feats += _annotation_features(span.text, first.label, annotated)
    return sorted(set(feats))


def _annotation_features(text: str, label: str | None, annotated) -> list[str]:
    """How often the training annotation names the phrase where it is written, and as what: the
    field's everyday names (``regret``, ``node classification``) that one sentence leaves in doubt."""
    found = annotated.get(term_key(text))
    if found is None or found.annotated < 2:
        return ["annotated=none"]
    level = share_level(found.annotated / max(found.written, found.annotated))
    return [f"annotated={level}", f"annotated={level}|{found.label}", f"annotated_kind={found.label}|{label}"]


def share_level(share: float) -> str:
    """A share in fifths, as the decisions' features write it."""
    return "<0.2" if share < 0.2 else "<0.4" if share < 0.4 else "<0.6" if share < 0.6 else "<0.8" if share < 0.8 else ">=0.8"


def _origin_features(group: list[Candidate], learned_at: dict[tuple[int, int], str | None]) -> list[str]:
    """Which rules, recogniser labels and catalogue entries found the name."""
    first = group[0]
    feats = sorted({f"source={c.source}" for c in group})
    feats += sorted({f"source={c.source}|{c.label}" for c in group})
    ner = {learned_at.get((c.start, c.end)) for c in group} - {None}
    feats += [f"ner={label}" for label in sorted(ner)] or ["ner=none"]
    if any(c.kb_id for c in group):
        feats.append(f"catalogue|{first.label}")
    if first.priority >= PRIORITY_CATALOGUE and not first.kb_id:
        feats.append(f"catalogue-inside|{first.label}")  # BERT-base, CIFAR-10-Warehouse
    return feats


def _shape_features(span: Span, vocabulary: Vocabulary) -> list[str]:
    """How the name is written: a size, its capitals, digits, slashes, stop words."""
    text = span.text
    words = [t.lower_ for t in span]
    feats = []
    if SIZE.search(text.rsplit("-", 1)[-1].rsplit(" ", 1)[-1]) or (
        words[-1] in vocabulary.model_variants and len(words) > 1
    ):
        feats.append("sized")  # GPT-2 XL, Llama-2-7B: a released model
    feats.append(f"shape={_case_shape(span)}")
    if any(c.isdigit() for c in text):
        feats.append("shape=digit")
    if not any(c.isalpha() for c in text):
        feats.append("shape=no-letters")
    if "://" in text or "/" in text:
        feats.append("shape=slash")
    if any(t.is_stop for t in span):
        feats.append("has-stopword")
    return feats


def _case_shape(span: Span) -> str:
    """``acronym``, ``capital`` (every word), ``first-capital`` or ``lower``."""
    text = span.text
    letters = [ch for ch in text if ch.isalpha()]
    if is_short_form(text.replace(" ", "")) and sum(ch.isupper() for ch in letters) * 2 >= len(letters):
        return "acronym"
    if not text[:1].isupper():
        return "lower"
    return "capital" if all(t.text[:1].isupper() or not t.is_alpha for t in span) else "first-capital"


def _word_features(span: Span, label: str | None, vocabulary: Vocabulary) -> list[str]:
    """The name's first and head words and their tags; the head's ending, which types heads
    never seen in training (``-ity`` metrics, ``-tion`` tasks). A released model's variant
    (``RoBERTa-large``, ``T5-base``) is not its head: ``large`` says nothing of what it is."""
    words = [t.lower_ for t in span]
    head = _head_index(span, vocabulary)
    feats = [f"head={words[head]}", f"head={words[head]}|{label}", f"first={words[0]}"]
    if len(words[head]) > 4:
        feats += [f"head_end={words[head][-3:]}", f"head_end={words[head][-3:]}|{label}"]
    if len(words) == 1:
        feats.append(f"word={words[0]}")
    if span[0].tag_:
        feats += [f"first_tag={span[0].tag_}", f"head_tag={span[head].tag_}"]
    return feats


def _head_index(span: Span, vocabulary: Vocabulary) -> int:
    """The last word's index, or the word's before a hyphenated model variant (``-large``)."""
    if len(span) >= 3 and span[-2].text == "-" and span[-1].lower_ in vocabulary.model_variants \
            and not span[-2].whitespace_ and not span[-3].whitespace_:
        return len(span) - 3
    return len(span) - 1


def _standing_features(doc: Doc, group: list[Candidate], vocabulary: Vocabulary, names: set[str]) -> list[str]:
    """Where the name stands in the field and the paper: generic, a variant of another name,
    emphasised, how common in the field, in the title."""
    first = group[0]
    text = doc[first.start:first.end].text
    feats = []
    if vocabulary.is_generic_phrase(text) or vocabulary.is_family(text):
        feats.append("generic")
    if is_variant(name_key(text), names):
        feats += ["variant", f"variant|{first.label}"]
    emphasized = {(s.start, s.end) for s in emphasized_spans(doc)}
    if any((c.start, c.end) in emphasized for c in group):
        feats += ["emphasized", f"emphasized|{first.label}"]
    df = _bucket(term_frequency(text), (0, 9, 49, 199))
    feats += [f"field_df={df}", f"field_df={df}|{first.label}"]
    title = doc._.kg_title.lower() if doc.has_extension("kg_title") else ""
    if title and text.lower() in title:
        feats.append("in_title")
    return feats


def _neighbour_features(doc: Doc, c: Candidate, label: str | None) -> list[str]:
    """The words before and after one mention, and after its acronym; a number beside it
    (``BLEU 31.5``, ``81.2% accuracy``) whatever the number."""
    feats = []
    if c.start > 0:
        prev = doc[c.start - 1]
        feats.append(f"prev={prev.lower_}")
        if prev.like_num or prev.text == "%":
            feats += ["prev_number", f"prev_number|{label}"]
    if c.end < len(doc):
        nxt = doc[c.end]
        feats += [f"next={nxt.lower_}", f"next={nxt.lower_}|{label}"]
        if nxt.like_num:
            feats += ["next_number", f"next_number|{label}"]
    after = _after_acronym(doc, c.start, c.end)
    if after is not None:  # the Marginal Ratio (MR) estimator: the word after the acronym
        word = doc[after].lower_
        feats += [f"next_acronym={word}", f"next_acronym={word}|{label}"]
    return feats
