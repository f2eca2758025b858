"""Resolve the entities of all papers into canonical, graph-wide entities.

Two passes, so memory grows with the number of distinct entities, not papers:
``add`` every :class:`~kg.types.Extraction` (statistics only), then
``resolve`` each one into a :class:`~kg.types.PaperRecord`.

Names are compared by :func:`kg.ids.name_key` (case, hyphens, plurals,
``CIFAR10`` = ``CIFAR-10``). Keys are then joined into one entity when

- an acronym is defined for a long form (``large language models (LLMs)``):
  its letters must spell the long form, and most papers that define it must
  define it so (one odd definition cannot pull a name away);
- they differ only in separators (``StableDiffusion``, ``Stable Diffusion``);
- they carry the same catalogue id (``ImageNet``, ``ImageNet-1K``).

An entity's name is the surface form most papers use (the catalogue's own
name when it is one of them), and its id comes from that name. Type and
catalogue id are majority votes over papers, ties broken by a fixed order, so
ids and names do not depend on input order. Generic classes (``large language
model``, ``neural network``) are flagged ``generic`` so that rankings and maps
can leave them out.

Examples
--------
>>> from kg.types import Entity, Extraction, Paper, Source
>>> def paper(pid, *entities):
...     return Extraction(Paper(pid, "", Source("x", 0)), list(entities))
>>> a = paper("a", Entity("GNN", "Method", "graph-neural-network", aliases=["Graph Neural Network"]))
>>> b = paper("b", Entity("GNNs", "Method", "gnn"))
>>> resolver = Resolver()
>>> for p in (a, b):
...     resolver.add(p)
>>> [(e.id, e.name) for e in resolver.resolve(b).entities]
[('entity:gnn', 'GNN')]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field, replace

from kg.extract.abbreviations import is_short_form, schwartz_hearst_long_form
from kg.extract.vocabulary import is_generic_class
from kg.ids import entity_id, name_key, singular_name
from kg.schema import EDGES, RESULT_FIELDS
from kg.types import ENTITY_TYPES, Extraction, Mention, PaperRecord, Relation, ResolvedEntity, Result

__all__ = ["Resolver", "CanonicalEntity"]

_TYPE_ORDER = {t: i for i, t in enumerate(ENTITY_TYPES)}
#: An acronym resolves to the long form that at least this share of its definitions give.
DOMINANT_DEFINITION = 2 / 3


@dataclass
class CanonicalEntity:
    """What the graph knows of one entity after resolution."""

    id: str
    name: str
    type: str
    aliases: list[str]
    catalogue_id: str | None
    generic: bool = False


@dataclass
class _Stats:
    types: Counter = field(default_factory=Counter)
    names: Counter = field(default_factory=Counter)  # surface form -> papers using it
    catalogue: Counter = field(default_factory=Counter)

    def update(self, other: _Stats) -> None:
        """Add the counts of ``other`` (the statistics of one name over more papers)."""
        self.types.update(other.types)
        self.names.update(other.names)
        self.catalogue.update(other.catalogue)

    def top_catalogue(self) -> str | None:
        """The catalogue id most papers give (ties: the smallest)."""
        return min(self.catalogue, key=lambda c: (-self.catalogue[c], c)) if self.catalogue else None


def abbreviates(short: str, long_key: str) -> bool:
    """``short`` is an acronym whose letters spell the long form ``long_key`` (a name key).

    >>> abbreviates("LLMs", "large-language-model"), abbreviates("ImageNet", "cv-dataset")
    (True, False)
    """
    words = long_key.split("-")
    if not is_short_form(short) or len(words) < 2:
        return False
    first = schwartz_hearst_long_form(short, words)
    return first is not None and first <= 1


class _Groups:
    """Union-find over name keys; the root of a group is its smallest key (order-independent)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        parent = self.parent.setdefault(key, key)
        if parent != key:
            parent = self.parent[key] = self.find(parent)
        return parent

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


class Resolver:
    def __init__(self) -> None:
        self._stats: dict[str, _Stats] = defaultdict(_Stats)
        self._definitions: dict[str, Counter] = defaultdict(Counter)
        self._ids: dict[str, str] | None = None
        self._canonical: dict[str, CanonicalEntity] | None = None

    def add(self, extraction: Extraction) -> None:
        """Count one paper's entities (call for every paper before :meth:`resolve`)."""
        self._ids = self._canonical = None
        for entity in extraction.entities:
            stats = self._stats[entity.key]
            weight = 3 if entity.proposed or entity.catalogue_id else 1
            stats.types[entity.type] += weight
            surfaces = {name_key(n): n for n in sorted({entity.name, *entity.aliases}, reverse=True)}
            stats.names.update(surfaces.values())
            if entity.catalogue_id:
                stats.catalogue[entity.catalogue_id] += 1
            for alias_key, alias in surfaces.items():
                if alias_key != entity.key and abbreviates(alias, entity.key):
                    self._definitions[alias_key][entity.key] += 1

    def statistics(self) -> tuple[dict[str, _Stats], dict[str, Counter]]:
        """What :meth:`add` counted: per name key its types, surface forms and catalogue ids;
        per acronym key the long forms papers define it as (:mod:`kg.cluster` adds these up
        across workers)."""
        return self._stats, self._definitions

    def _group(self) -> _Groups:
        acronyms = []
        for short, long_forms in sorted(self._definitions.items()):
            long = dominant_long_form(long_forms)
            if long is not None and short in self._stats:
                acronyms.append((short, long))
        return group_keys(sorted(self._stats), acronyms, lambda key: self._stats[key].top_catalogue())

    @property
    def entities(self) -> dict[str, CanonicalEntity]:
        """All canonical entities by id."""
        if self._canonical is None:
            self._build()
        assert self._canonical is not None
        return self._canonical

    def _build(self) -> None:
        groups = self._group()
        members: dict[str, list[str]] = defaultdict(list)
        for key in sorted(self._stats):
            members[groups.find(key)].append(key)
        canonical: dict[str, CanonicalEntity] = {}
        ids: dict[str, str] = {}
        for root in sorted(members, key=lambda r: (-len(members[r]), r)):
            merged = _Stats()
            for key in members[root]:
                merged.update(self._stats[key])
            kind, catalogue, name = describe_group(merged)
            name, eid = claim_id(name, root, merged.names, canonical)
            canonical[eid] = canonical_entity(eid, name, kind, catalogue, merged.names)
            for key in members[root]:
                ids[key] = eid
        self._canonical = dict(sorted(canonical.items()))
        self._ids = ids

    def entity_id(self, key: str) -> str:
        """The graph-wide id of an extracted entity key."""
        if self._ids is None:
            self._build()
        assert self._ids is not None
        return self._ids[key]

    def resolve(self, extraction: Extraction) -> PaperRecord:
        """One paper with its entities under graph-wide ids (merged when two resolve alike)."""
        return resolve_record(extraction, self.entity_id, self.entities)


def dominant_long_form(long_forms: Counter) -> str | None:
    """The long form an acronym resolves to: the one at least :data:`DOMINANT_DEFINITION` of its
    definitions give, if no other is given as often; else None."""
    (long, count), total = long_forms.most_common(1)[0], sum(long_forms.values())
    tied = [k for k, c in long_forms.items() if c == count]
    return long if count >= DOMINANT_DEFINITION * total and len(tied) == 1 else None


def group_keys(
    keys: Iterable[str], acronyms: Iterable[tuple[str, str]], top_catalogue: Callable[[str], str | None],
) -> _Groups:
    """Join name keys into groups: each acronym with its long form, keys that differ only in
    separators, keys whose most given catalogue id is the same. ``keys`` are sorted; the groups
    (and their roots, the smallest key of each) do not depend on the order of the joins."""
    groups = _Groups()
    for short, long in acronyms:
        groups.union(short, long)
    by_spelling: dict[str, str] = {}
    by_catalogue: dict[str, str] = {}
    for key in keys:
        groups.find(key)
        bare = key.replace("-", "")
        if bare in by_spelling:
            groups.union(key, by_spelling[bare])
        by_spelling.setdefault(bare, key)
        top = top_catalogue(key)
        if top:
            if top in by_catalogue:
                groups.union(key, by_catalogue[top])
            by_catalogue.setdefault(top, key)
    return groups


def describe_group(merged: _Stats) -> tuple[str, str | None, str]:
    """Type, catalogue id and name of a group of keys from their merged statistics."""
    kind = min(merged.types, key=lambda t: (-merged.types[t], _TYPE_ORDER[t]))
    catalogue = merged.top_catalogue()
    if catalogue and _catalogue_label(catalogue) not in (None, kind):
        catalogue = None  # a Method is not the catalogue's task of the same name
    return kind, catalogue, _canonical_name(merged.names, catalogue)


def names_by_use(names: Counter) -> list[str]:
    """Surface forms, the most used first (ties: alphabetical)."""
    return sorted(names, key=lambda n: (-names[n], n))


def claim_id(name: str, root: str, names: Counter | list[str], taken: Container[str]) -> tuple[str, str]:
    """The name and id of a group once the groups before it (by size, then root) took the ids
    ``taken``: the id of its name, else that of the first of its ``names`` (a Counter, or a list
    already most used first) whose id is free, else that of its root key (an acronym two
    entities share, ``CMDP``: each goes by another of its names)."""
    eid = entity_id(name_key(name) or root)
    if eid in taken:
        ordered = names_by_use(names) if isinstance(names, Counter) else names
        name = next((n for n in ordered if entity_id(name_key(n)) not in taken), name)
        eid = entity_id(name_key(name) or root)
        if eid in taken:
            eid = entity_id(root)
    return name, eid


def canonical_entity(eid: str, name: str, kind: str, catalogue: str | None, names: Counter) -> CanonicalEntity:
    return CanonicalEntity(
        id=eid, name=name, type=kind, aliases=_aliases(names, name),
        catalogue_id=catalogue, generic=is_generic_class(name, list(names)),
    )


def resolve_record(
    extraction: Extraction, entity_id_of: Callable[[str], str], canonical: Mapping[str, CanonicalEntity],
) -> PaperRecord:
    """One paper under graph-wide ids: ``entity_id_of`` maps its entity keys to ids, ``canonical``
    gives each id's name, type, catalogue id and generic flag."""
    ids = [entity_id_of(e.key) for e in extraction.entities]
    merged: dict[str, ResolvedEntity] = {}
    for entity, eid in zip(extraction.entities, ids):
        info = canonical[eid]
        if eid in merged:
            target = merged[eid]
            target.mentions = sorted({*target.mentions, *entity.mentions}, key=_mention_order)
            target.proposed = target.proposed or entity.proposed
        else:
            merged[eid] = ResolvedEntity(
                id=eid,
                name=info.name,
                type=info.type,  # type: ignore[arg-type]
                proposed=entity.proposed,
                mentions=sorted(entity.mentions, key=_mention_order),
                catalogue_id=info.catalogue_id,
                generic=info.generic,
            )
    relations, seen = [], set()
    for rel in extraction.relations:
        subject, obj = ids[rel.subject], ids[rel.object]
        if subject != obj and (subject, rel.predicate, obj) not in seen:
            seen.add((subject, rel.predicate, obj))
            relations.append(Relation(subject, rel.predicate, obj, rel.start, rel.end))
    results = [_result(r, ids, canonical) for r in extraction.results]
    entities = sorted(merged.values(), key=lambda e: _mention_order(e.mentions[0]) if e.mentions else (False, 0, 0))
    return PaperRecord(extraction.paper, entities, relations, results, list(extraction.code_urls))


def _result(result: Result, ids: list[str], canonical: Mapping[str, CanonicalEntity]) -> Result:
    """A result under graph-wide ids; a field whose entity resolved to a type it cannot take
    (a dataset that is a Method across the corpus) is left empty rather than kept wrong."""

    def ref(index: int | None, types: tuple[str, ...]) -> str | None:
        if index is None:
            return None
        eid = ids[index]
        return eid if canonical[eid].type in types else None

    # each field may hold the labels its result edge goes to (kg.schema)
    return replace(result, **{name: ref(getattr(result, name), EDGES[kind].targets)
                              for kind, name in RESULT_FIELDS.items()})


def _catalogue_label(catalogue_id: str) -> str | None:
    from kg.extract.lexicons import catalogue_entry

    entry = catalogue_entry(catalogue_id)
    return entry["label"] if entry else None


def _aliases(names: Counter, name: str) -> list[str]:
    """Other surface forms, without mere case or plural variants of the name itself."""
    same = name.lower()
    return sorted(n for n in names if n.lower() != same and singular_name(n).lower() != same)


def _canonical_name(names: Counter, catalogue_id: str | None) -> str:
    """The surface form most papers use; the catalogue's own name breaks a tie."""
    preferred = ""
    if catalogue_id:
        from kg.extract.lexicons import catalogue_entry

        entry = catalogue_entry(catalogue_id)
        preferred = entry["name"] if entry else ""
    by_key: dict[str, Counter] = defaultdict(Counter)
    for name, count in names.items():
        by_key[name_key(name)][name] += count
    best_key = min(by_key, key=lambda k: (-sum(by_key[k].values()), k != name_key(preferred), k))
    forms = by_key[best_key]
    return min(forms, key=lambda n: (-forms[n], n != preferred, n))


def _mention_order(mention: Mention) -> tuple[bool, int, int]:
    """The title first, then the abstract, each in reading order."""
    return (mention.field != "title", mention.start, mention.end)
