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

    def _group(self) -> _Groups:
        groups = _Groups()
        keys = sorted(self._stats)
        for short, long_forms in sorted(self._definitions.items()):
            (long, count), total = long_forms.most_common(1)[0], sum(long_forms.values())
            tied = [k for k, c in long_forms.items() if c == count]
            if count >= DOMINANT_DEFINITION * total and len(tied) == 1 and short in self._stats:
                groups.union(short, long)
        by_spelling: dict[str, str] = {}
        by_catalogue: dict[str, str] = {}
        for key in keys:
            groups.find(key)
            bare = key.replace("-", "")
            if bare in by_spelling:
                groups.union(key, by_spelling[bare])
            by_spelling.setdefault(bare, key)
            catalogue = self._stats[key].catalogue
            if catalogue:
                top = min(catalogue, key=lambda c: (-catalogue[c], c))
                if top in by_catalogue:
                    groups.union(key, by_catalogue[top])
                by_catalogue.setdefault(top, key)
        return groups

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
                stats = self._stats[key]
                merged.types.update(stats.types)
                merged.names.update(stats.names)
                merged.catalogue.update(stats.catalogue)
            kind = min(merged.types, key=lambda t: (-merged.types[t], _TYPE_ORDER[t]))
            catalogue = min(merged.catalogue, key=lambda c: (-merged.catalogue[c], c)) if merged.catalogue else None
            if catalogue and _catalogue_label(catalogue) not in (None, kind):
                catalogue = None  # a Method is not the catalogue's task of the same name
            name = _canonical_name(merged.names, catalogue)
            eid = entity_id(name_key(name) or root)
            if eid in canonical:  # an acronym two entities share (CMDP): each goes by another of its names
                name = next((n for n in sorted(merged.names, key=lambda n: (-merged.names[n], n))
                             if entity_id(name_key(n)) not in canonical), name)
                eid = entity_id(name_key(name) or root)
                if eid in canonical:
                    eid = entity_id(root)
            canonical[eid] = CanonicalEntity(
                id=eid, name=name, type=kind, aliases=_aliases(merged.names, name),
                catalogue_id=catalogue, generic=is_generic_class(name, list(merged.names)),
            )
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
        canonical = self.entities
        ids = [self.entity_id(e.key) for e in extraction.entities]
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
        results = [self._result(r, ids) for r in extraction.results]
        entities = sorted(merged.values(), key=lambda e: e.mentions[0].start if e.mentions else 0)
        return PaperRecord(extraction.paper, entities, relations, results, list(extraction.code_urls))

    def _result(self, result: Result, ids: list[str]) -> Result:
        """A result under graph-wide ids; a field whose entity resolved to a type it cannot take
        (a dataset that is a Method across the corpus) is left empty rather than kept wrong."""
        canonical = self.entities

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


def _mention_order(mention: Mention) -> tuple[int, int]:
    return (mention.start, mention.end)
