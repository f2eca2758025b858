"""Stages 2-4 of a cluster build: name keys counted, joined and named, each group given its id.

The resolver's corpus-level decisions (:mod:`kg.resolve`), taken per key shard on the workers;
the client handles only the keys that join or carry a catalogue id, and one small record
per group.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kg.cluster.partition import _SAMPLE_POINTS, _node_weights, _quantiles, _records, _range, _shard
from kg.ids import entity_id, name_key
from kg.resolve import (
    CanonicalEntity, Resolver, _Stats, canonical_entity, claim_id, describe_group, dominant_long_form,
    group_keys, names_by_use,
)


def _count(data: bytes, shards: int) -> tuple:
    """Stage 2, map: a partition's counts split by key shard, its keys by shard (to look up
    later), and a sample of the node ids it will make (to place the range cuts)."""
    resolver = Resolver()
    weights: list[tuple[str, int]] = []
    for record in _records(data):
        resolver.add(record)
        weights += _node_weights(record)
    stats, definitions = resolver.statistics()
    pieces: list[tuple[dict, dict]] = [({}, {}) for _ in range(shards)]
    for key, stat in stats.items():
        pieces[_shard(key, shards)][0][key] = stat
    for short, forms in definitions.items():
        pieces[_shard(short, shards)][1][short] = forms
    return (*pieces, *[sorted(piece[0]) for piece in pieces], _quantiles(weights, _SAMPLE_POINTS))


def _add_counts(*pieces: tuple[dict, dict]) -> tuple[dict, dict]:
    """Stage 2, reduce: the counts of several partitions for one shard, added up (new objects:
    a task's inputs may be shared with other tasks on the same worker)."""
    stats: dict[str, _Stats] = {}
    definitions: dict[str, Counter] = {}
    for piece_stats, piece_definitions in pieces:
        for key, stat in piece_stats.items():
            stats.setdefault(key, _Stats()).update(stat)
        for short, forms in piece_definitions.items():
            definitions.setdefault(short, Counter()).update(forms)
    return stats, definitions


def _joins(counts: tuple[dict, dict]) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Stage 3: which keys of a shard join (acronym -> long form, same spelling without
    hyphens), and the top catalogue id of each catalogued key."""
    stats, definitions = counts
    joins = []
    for short, forms in sorted(definitions.items()):
        long = dominant_long_form(forms)
        if long is not None and short in stats:
            joins.append((short, long))
    first: dict[str, str] = {}
    for key in sorted(stats):
        bare = key.replace("-", "")
        if bare in first:
            joins.append((key, first[bare]))
        first.setdefault(bare, key)
    catalogued = {key: top for key, stat in stats.items() if (top := stat.top_catalogue())}
    return joins, catalogued


def _roots(shards: list[tuple[list, dict]], n: int) -> list[dict[str, str]]:
    """On the client: the root of every key that joins another, by the key's shard."""
    joins = [pair for pairs, _ in shards for pair in pairs]
    catalogued = {key: top for _, found in shards for key, top in found.items()}
    groups = group_keys(sorted(catalogued), joins, catalogued.get)
    roots: list[dict[str, str]] = [{} for _ in range(n)]
    for key in list(groups.parent):
        root = groups.find(key)
        if root != key:
            roots[_shard(key, n)][key] = root
    return roots


def _by_root(counts: tuple[dict, dict], roots: dict[str, str], shards: int) -> tuple[dict, ...]:
    """Stage 4, map: each key's statistics to the shard of its group's root."""
    pieces: list[dict[str, list]] = [{} for _ in range(shards)]
    for key, stat in counts[0].items():
        root = roots.get(key, key)
        pieces[_shard(root, shards)].setdefault(root, []).append((key, stat))
    return tuple(pieces)


@dataclass
class _Group:
    keys: list[str]
    names: Counter
    kind: str
    catalogue: str | None
    name: str


def _describe(*pieces: dict[str, list]) -> dict[str, _Group]:
    """Stage 4, reduce: each group's type, catalogue id and name from its members' statistics."""
    members: dict[str, list] = {}
    for piece in pieces:
        for root, items in piece.items():
            members.setdefault(root, []).extend(items)
    groups = {}
    for root, items in members.items():
        items.sort(key=lambda item: item[0])
        merged = _Stats()
        for _, stat in items:
            merged.update(stat)
        kind, catalogue, name = describe_group(merged)
        groups[root] = _Group([key for key, _ in items], merged.names, kind, catalogue, name)
    return groups


def _claims(groups: dict[str, _Group]) -> list[tuple[int, str, str, list[str]]]:
    """What the client needs to hand out ids: each group's size, root and name, and its other
    names whose ids differ (the first of each id, most used first), for when its id is taken."""
    out = []
    for root, group in groups.items():
        seen = {entity_id(name_key(group.name) or root)}
        others = []
        for name in names_by_use(group.names):
            candidate = entity_id(name_key(name))
            if candidate not in seen:
                seen.add(candidate)
                others.append(name)
        out.append((len(group.keys), root, group.name, others))
    return out


def _assign_ids(claims: list[list[tuple]], shards: int) -> tuple[list[dict], dict[str, str]]:
    """On the client, in the resolver's order (largest group first, then by root): the name and
    id of each group that does not get those of its own name, by shard, and the groups whose
    id a later group took (root -> that group's root)."""
    order = sorted((c for shard in claims for c in shard), key=lambda c: (-c[0], c[1]))
    taken: dict[str, str] = {}
    given = []
    changed: list[dict[str, tuple[str, str]]] = [{} for _ in range(shards)]
    for _, root, name, others in order:
        new_name, eid = claim_id(name, root, others, taken)
        if (new_name, eid) != (name, entity_id(name_key(name) or root)):
            changed[_shard(root, shards)][root] = (new_name, eid)
        taken[eid] = root
        given.append((root, eid))
    return changed, {root: taken[eid] for root, eid in given if taken[eid] != root}


def _entity(root: str, group: _Group, changed: dict[str, tuple[str, str]]) -> CanonicalEntity:
    name, eid = changed.get(root) or (group.name, entity_id(name_key(group.name) or root))
    return canonical_entity(eid, name, group.kind, group.catalogue, group.names)


def _entities_of(groups: dict[str, _Group], roots: list[str], changed: dict) -> dict[str, CanonicalEntity]:
    return {root: _entity(root, groups[root], changed) for root in roots}


def _finalize(groups: dict[str, _Group], changed: dict, winners: dict[str, CanonicalEntity], shards: int,
              bounds: list[str]) -> tuple[dict, ...]:
    """Stage 5, map: each key's entity to the key's shard, each entity to its id's range."""
    by_key: list[dict[str, tuple]] = [{} for _ in range(shards)]
    by_range: list[dict[str, CanonicalEntity]] = [{} for _ in range(len(bounds) + 1)]
    for root, group in groups.items():
        info = winners.get(root)
        if info is None:
            info = _entity(root, group, changed)
            by_range[_range(info.id, bounds)][info.id] = info
        entry = (info.id, info.name, info.type, info.catalogue_id, info.generic)
        for key in group.keys:
            by_key[_shard(key, shards)][key] = entry
    return (*by_key, *by_range)


def _union(*tables: dict) -> dict:
    out: dict = {}
    for table in tables:
        out.update(table)
    return out


def _lookup(keys: list[str], table: dict[str, tuple]) -> dict[str, tuple]:
    return {key: table[key] for key in keys}
