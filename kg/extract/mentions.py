"""Which mentions of one abstract name one entity: the same name, an acronym and its long form
(defined, or spelled by the long form's initials), a name and the same name with an acronym
written out; and the name a mention goes by (:func:`display_name`)."""

from __future__ import annotations

import re
from bisect import bisect_left

from spacy.tokens import Doc, Span

from kg.extract.abbreviations import is_short_form
from kg.extract.groups import IndexGroups
from kg.extract.lexicons import catalogue_ids_of
from kg.ids import name_key, singular_name

__all__ = ["display_name", "group_spans"]

_SIZE_IN_PARENS = re.compile(r"\s*\(\s*(\d+(?:\.\d+)?[BMKT]|\d+x\d+[BM])\s*\)", re.IGNORECASE)
_SIZE_AFTER_SPACE = re.compile(r"\s+(\d+(?:\.\d+)?[BMKT]|\d+x\d+[BM])$", re.IGNORECASE)


def display_name(text: str, proper: bool = False) -> str:
    """A mention as an entity name: sizes joined (``OPT (30B)`` -> ``OPT-30B``), singular, unless
    ``proper`` and written with a capital: a dataset's name is its own (``Natural Questions``,
    ``Tanks and Temples``), not a common noun's plural. Name keys are singular either way.

    >>> display_name("Graph Neural Networks"), display_name("Natural Questions", proper=True)
    ('Graph Neural Network', 'Natural Questions')
    """
    text = " ".join(text.split())
    text = _SIZE_IN_PARENS.sub(r"-\1", text)
    if re.search(r"[A-Z]", text.rsplit(" ", 1)[0]):
        text = _SIZE_AFTER_SPACE.sub(r"-\1", text)
    text = text.strip(" -")
    return text if proper and re.search(r"[A-Z]", text) else singular_name(text)


def group_spans(doc: Doc, spans: list[Span]) -> list[tuple[list[Span], set[tuple[int, int]]]]:
    """Spans of one entity, each group with the extents of its long forms: the same name key, an
    acronym and its long form (defined in the text, or spelled by its initials), a name and the
    same name with its acronym written out (``safe RL``, ``safe reinforcement learning``)."""
    groups = IndexGroups(len(spans))
    find = groups.find
    names = [display_name(span.text) for span in spans]
    by_key: dict[str, int] = {}
    for i, name in enumerate(names):
        key = name_key(name)
        if key in by_key:
            groups.union(i, by_key[key])
        else:
            by_key[key] = i
    long_forms: set[tuple[int, int]] = set()
    by_char = {(s.start_char, s.end_char): i for i, s in enumerate(spans)}
    first_overlapping = _overlap_finder(list(by_char.items()))
    for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
        short = by_char.get((s_start, s_end))
        long = first_overlapping(l_start, l_end)
        if short is None or long is None or short == long:
            continue
        covered = min(spans[long].end_char, l_end) - max(spans[long].start_char, l_start)
        if covered * 2 < l_end - l_start:
            continue  # an entity inside a long form is not the long form
        if spans[long].kb_id_ and _words_beside(doc.text, spans[long], l_start, l_end):
            continue  # nor is a catalogue entry inside it: "High-Resolution Salient Object Detection (HRSOD)"
        long_forms.add((spans[long].start_char, spans[long].end_char))
        groups.union(short, long)

    def join(short: int, long: int) -> None:
        """``short``'s entity joins ``long``'s, whose mentions are long forms."""
        root = find(long)
        long_forms.update((s.start_char, s.end_char) for j, s in enumerate(spans) if find(j) == root)
        groups.union(short, long)

    for short, long in _initialisms(spans, names, find, long_forms):
        join(short, long)
    for written, expanded in _with_acronyms_expanded(doc, spans, names, find, long_forms):
        join(written, expanded)
    members: dict[int, list[Span]] = {}
    for i, span in enumerate(spans):
        members.setdefault(find(i), []).append(span)
    groups = []
    for root in sorted(members, key=lambda r: min(s.start_char for s in members[r])):
        group = members[root]
        group_long = {(s.start_char, s.end_char) for s in group} & long_forms
        groups.append((group, group_long))
    return groups


_INITIALS_GLUE = frozenset("a an the of and for to in on with via by from".split())


def _initials(name: str) -> str:
    """The first letters of a name's words, glue words left out: ``rl`` for reinforcement learning.

    >>> _initials("stochastic gradient descent"), _initials("Learning-to-Rank"), _initials("GPT-4")
    ('sgd', 'lr', 'g4')
    """
    return "".join(w[0] for w in re.split(r"[\s\-/]+", name.lower()) if w and w not in _INITIALS_GLUE)


def _initialisms(spans: list[Span], names: list[str], find, long_forms: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """(acronym, long form) span indices for an acronym the abstract uses without defining it and
    the one name of the abstract whose words' initials spell it, written before it: ``RL`` and
    ``reinforcement learning`` are one entity, as a definition would make them. Two such names:
    none; the name written only after the acronym: none (``LPs`` ... ``linear prediction``).
    ``names``: the spans' display names."""
    linked = {find(i) for i, s in enumerate(spans) if (s.start_char, s.end_char) in long_forms}
    first: dict[int, int] = {}
    for i, s in enumerate(spans):
        first[find(i)] = min(first.get(find(i), s.start_char), s.start_char)
    long_by_initials: dict[str, set[int]] = {}
    for i, name in enumerate(names):
        if (" " in name or "-" in name) and not is_short_form(name):
            long_by_initials.setdefault(_initials(name), set()).add(find(i))
    found = []
    for i, name in enumerate(names):
        letters = name[:-1] if name.endswith("s") and name[:-1].isupper() else name
        if not (is_short_form(letters) and letters.isupper() and letters.isalpha()) or find(i) in linked:
            continue
        roots = long_by_initials.get(letters.lower(), set())
        if len(roots) == 1:
            long = next(j for j in range(len(spans)) if find(j) in roots)
            if first[find(long)] < first[find(i)] and _same_catalogue_entry(spans, names, find, i, long):
                found.append((i, long))
                linked.add(find(i))
    return found


def _same_catalogue_entry(spans: list[Span], names: list[str], find, i: int, j: int) -> bool:
    """The names of spans ``i`` and ``j`` are the same catalogue entry or neither is one, by the
    catalogue ids of their groups' spans and by their names: a catalogued name (``SAM``, the
    segmentation model; the task ``offline RL``) never joins another name by its letters."""
    ids = [{s.kb_id_ for k, s in enumerate(spans) if s.kb_id_ and find(k) == find(x)} for x in (i, j)]
    named = [catalogue_ids_of(names[x]) for x in (i, j)]
    return ids[0] == ids[1] and named[0] == named[1]


def _with_acronyms_expanded(doc: Doc, spans: list[Span], names: list[str], find,
                            long_forms: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """(name, same name written out) span indices: ``safe RL`` and ``safe reinforcement learning``
    are one entity where ``RL`` is the acronym of ``reinforcement learning`` (a definition of the
    text, or an acronym joined to its long form; ``names``: the spans' display names)."""
    groups: dict[int, list[int]] = {}
    for i in range(len(spans)):
        groups.setdefault(find(i), []).append(i)
    text = doc.text
    expansions = {display_name(text[a:b]): display_name(text[c:d]) for a, b, c, d in doc._.kg_abbreviations}
    for members in groups.values():
        longs = [names[i] for i in members if (spans[i].start_char, spans[i].end_char) in long_forms]
        for i in members:
            if longs and " " not in names[i] and is_short_form(names[i]) and names[i] not in longs:
                expansions.setdefault(names[i], longs[0])
    if not expansions:
        return []
    by_key = {name_key(name): i for i, name in enumerate(names)}
    found = []
    for i, name in enumerate(names):
        words = name.split(" ")
        expanded = " ".join(expansions.get(word, word) for word in words)
        if len(words) > 1 and expanded != name:
            j = by_key.get(name_key(expanded))
            if j is not None and find(j) != find(i) and _same_catalogue_entry(spans, names, find, i, j):
                found.append((i, j))
    return found


def _words_beside(text: str, span: Span, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` has words outside ``span`` but articles and separators."""
    outside = f"{text[start:max(start, span.start_char)]} {text[min(end, span.end_char):end]}"
    return any(word.lower() not in ("a", "an", "the") for word in re.findall(r"\w+", outside))


def _overlap_finder(entries: list[tuple[tuple[int, int], int]]):
    """``(start, end) -> value`` of the first entry whose span holds ``start`` or starts inside
    ``start..end``; a search among nearby starts, not a scan (many acronyms stay linear)."""
    order = sorted(range(len(entries)), key=lambda p: entries[p][0][0])
    starts = [entries[p][0][0] for p in order]
    longest = max((b - a for (a, b), _ in entries), default=0)

    def first(start: int, end: int) -> int | None:
        near = order[bisect_left(starts, start - longest) : bisect_left(starts, max(end, start + 1))]
        hits = [p for p in near if (a := entries[p][0])[0] <= start < a[1] or start <= a[0] < end]
        return entries[min(hits)][1] if hits else None

    return first
