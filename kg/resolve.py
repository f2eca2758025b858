"""Resolve the entities of all papers into canonical, graph-wide entities.

Two passes, so memory grows with the number of distinct entities, not papers:
``add`` every :class:`~kg.types.Extraction` (statistics only), then
``resolve`` each one into a :class:`~kg.types.PaperRecord`.

- Names are compared by :func:`kg.ids.name_key` (case, hyphens, plurals,
  ``CIFAR10`` = ``CIFAR-10``); keys that differ only in separators
  (``StableDiffusion``, ``Stable Diffusion``) are one entity, under the key with
  the most separators.
- An acronym defined in a paper (``Graph Neural Networks (GNNs)``) is that
  paper's long form; in papers that use it bare it resolves to the long form
  when the corpus defines it one way only.
- Type, display name and catalogue id are majority votes over papers, with
  ties broken by a fixed order, so ids and names do not depend on input order.

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
>>> [e.id for e in resolver.resolve(b).entities]
['entity:graph-neural-network']
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from kg.ids import entity_id, name_key
from kg.types import ENTITY_TYPES, Extraction, Mention, PaperRecord, Relation, ResolvedEntity, Result

__all__ = ["Resolver", "CanonicalEntity"]

_TYPE_ORDER = {t: i for i, t in enumerate(ENTITY_TYPES)}


@dataclass
class CanonicalEntity:
    """What the graph knows of one entity after resolution."""

    id: str
    name: str
    type: str
    aliases: list[str]
    catalogue_id: str | None


@dataclass
class _Stats:
    types: Counter = field(default_factory=Counter)
    names: Counter = field(default_factory=Counter)
    surface: set = field(default_factory=set)
    catalogue: Counter = field(default_factory=Counter)


class Resolver:
    def __init__(self) -> None:
        self._stats: dict[str, _Stats] = defaultdict(_Stats)
        self._long_forms: dict[str, set[str]] = defaultdict(set)
        self._spellings: dict[str, set[str]] = defaultdict(set)
        self._canonical: dict[str, CanonicalEntity] | None = None

    def add(self, extraction: Extraction) -> None:
        """Count one paper's entities (call for every paper before :meth:`resolve`)."""
        self._canonical = None
        for entity in extraction.entities:
            for alias in [entity.name, *entity.aliases]:
                alias_key = name_key(alias)
                if alias_key != entity.key:
                    self._long_forms[alias_key].add(entity.key)
        for entity in extraction.entities:
            self._spellings[entity.key.replace("-", "")].add(entity.key)
            stats = self._stats[entity.key]
            weight = 3 if entity.proposed or entity.catalogue_id else 1
            stats.types[entity.type] += weight
            stats.names[entity.name] += 1
            stats.surface.update([entity.name, *entity.aliases])
            if entity.catalogue_id:
                stats.catalogue[entity.catalogue_id] += 1

    def canonical_key(self, key: str) -> str:
        """The key an entity resolves to: an acronym defined one way maps to its long form,
        and of the keys spelt alike but for separators the one with the most stands for all."""
        long_forms = self._long_forms.get(key)
        if long_forms and len(long_forms) == 1:
            key = next(iter(long_forms))
        spellings = self._spellings.get(key.replace("-", ""))
        if spellings and len(spellings) > 1:
            key = min(spellings, key=lambda k: (-k.count("-"), k))
        return key

    @property
    def entities(self) -> dict[str, CanonicalEntity]:
        """All canonical entities by id."""
        if self._canonical is None:
            self._canonical = self._build()
        return self._canonical

    def _build(self) -> dict[str, CanonicalEntity]:
        merged: dict[str, _Stats] = defaultdict(_Stats)
        for key in sorted(self._stats):
            stats, target = self._stats[key], merged[self.canonical_key(key)]
            target.types.update(stats.types)
            target.names.update(stats.names)
            target.surface.update(stats.surface)
            target.catalogue.update(stats.catalogue)
        out = {}
        for key, stats in merged.items():
            kind = min(stats.types, key=lambda t: (-stats.types[t], _TYPE_ORDER[t]))
            name = min(stats.names, key=lambda n: (-stats.names[n], n))
            catalogue = (
                min(stats.catalogue, key=lambda c: (-stats.catalogue[c], c)) if stats.catalogue else None
            )
            out[entity_id(key)] = CanonicalEntity(
                id=entity_id(key),
                name=name,
                type=kind,
                aliases=sorted(stats.surface - {name}),
                catalogue_id=catalogue,
            )
        return out

    def resolve(self, extraction: Extraction) -> PaperRecord:
        """One paper with its entities under graph-wide ids (merged when two resolve alike)."""
        canonical = self.entities
        ids = [entity_id(self.canonical_key(e.key)) for e in extraction.entities]
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
                )
        relations, seen = [], set()
        for rel in extraction.relations:
            subject, obj = ids[rel.subject], ids[rel.object]
            if subject != obj and (subject, rel.predicate, obj) not in seen:
                seen.add((subject, rel.predicate, obj))
                relations.append(Relation(subject, rel.predicate, obj, rel.start, rel.end))
        results = [
            Result(
                metric=r.metric,
                value=r.value,
                start=r.start,
                end=r.end,
                subject=ids[r.subject] if r.subject is not None else None,
                dataset=ids[r.dataset] if r.dataset is not None else None,
                baseline=ids[r.baseline] if r.baseline is not None else None,
            )
            for r in extraction.results
        ]
        entities = sorted(merged.values(), key=lambda e: e.mentions[0].start if e.mentions else 0)
        return PaperRecord(extraction.paper, entities, relations, results, list(extraction.code_urls))


def _mention_order(mention: Mention) -> tuple[int, int]:
    return (mention.start, mention.end)
