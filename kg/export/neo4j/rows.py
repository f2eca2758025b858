"""The graph as rows for ``UNWIND``: nodes by label, relationships by (type, source label, target label).

Property values are flat: strings, numbers, booleans and lists of one of them.
Lists of maps (``mentions``, ``evidence``) become parallel lists, one per key:
``evidence`` -> ``evidence_papers``, ``evidence_starts``, ``evidence_ends``;
``mentions`` -> ``mention_starts``, ``mention_ends``. ``None`` values are left
out. Anything else that is not flat (a map, a mixed list) is stored as a JSON
string.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.export.neo4j.statements import (
    _IDENTIFIER,
    NODE_LABELS,
    RELATIONSHIP_TYPES,
    _check_label,
    _check_type,
)

logger = logging.getLogger(__name__)

#: A relationship row's group: (type, source label, target label).
Group = tuple[str, str, str]
#: The schema's own label strings, so a map of a million ids to labels holds nine strings.
_LABELS = {label: label for label in NODE_LABELS}
_LABEL_ORDER = {label: i for i, label in enumerate(NODE_LABELS)}
_TYPE_ORDER = {rel_type: i for i, rel_type in enumerate(RELATIONSHIP_TYPES)}

#: Lists of maps whose keys are known, so an empty list still gives its parallel lists.
_MAP_LISTS = {"mentions": ("start", "end"), "evidence": ("paper", "start", "end")}
_SKIP_NODE_KEYS = frozenset({"label", "id"})
_SKIP_EDGE_KEYS = frozenset({"type"})


@dataclass
class Rows:
    """The graph as rows ready for ``UNWIND``.

    ``nodes`` maps a label to ``[{"id", "props"}]``; ``relationships`` maps
    ``(type, source label, target label)`` to ``[{"src", "dst", "props"}]``.
    Both are sorted by id, so the same graph always gives the same rows.
    """

    nodes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    relationships: dict[Group, list[dict[str, Any]]] = field(default_factory=dict)

    def node_counts(self) -> dict[str, int]:
        return {label: len(rows) for label, rows in self.nodes.items()}

    def relationship_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for (rel_type, _, _), rows in self.relationships.items():
            counts[rel_type] = counts.get(rel_type, 0) + len(rows)
        return counts

    @property
    def node_total(self) -> int:
        return sum(len(rows) for rows in self.nodes.values())

    @property
    def relationship_total(self) -> int:
        return sum(len(rows) for rows in self.relationships.values())

    def iter_nodes(self, *, warn: bool = True) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(label, row)`` of every node, label by label (a :class:`~kg.export.neo4j.stream.RowSource`)."""
        for label, rows in self.nodes.items():
            for row in rows:
                yield label, row

    def iter_relationships(self, *, warn: bool = True) -> Iterator[tuple[Group, dict[str, Any]]]:
        """``(group, row)`` of every relationship, group by group."""
        for group, rows in self.relationships.items():
            for row in rows:
                yield group, row


def _scalar_kind(value: Any) -> type | None:
    if isinstance(value, bool):
        return bool
    if isinstance(value, int):
        return int
    if isinstance(value, float):
        return float
    if isinstance(value, str):
        return str
    return None


def _flat_list(items: list[Any]) -> bool:
    """A list Neo4j can store: scalars of one kind (ints may mix with floats), no None."""
    kinds = {_scalar_kind(item) for item in items}
    if None in kinds:
        return False
    return len(kinds) <= 1 or kinds == {int, float}


def _flatten_maps(key: str, maps: list[Any]) -> dict[str, list[Any]] | None:
    """``evidence=[{paper, start, end}]`` -> ``evidence_papers``, ``evidence_starts``, ``evidence_ends``."""
    subkeys = _MAP_LISTS.get(key) or (tuple(maps[0]) if maps else ())
    if not subkeys or not all(_IDENTIFIER.match(str(sub)) for sub in subkeys):
        return None
    if not all(isinstance(m, Mapping) and set(m) == set(subkeys) for m in maps):
        return None
    prefix = key.removesuffix("s")
    out = {f"{prefix}_{sub}s": [m[sub] for m in maps] for sub in subkeys}
    if not all(_flat_list(values) for values in out.values()):
        return None
    return out


_SCALAR_TYPES = frozenset({str, int, float, bool})
_GOOD_KEYS: set[str] = set()


def _properties(attrs: Mapping[str, Any], skip: frozenset[str], where: object | None) -> dict[str, Any]:
    """Flat properties; an attribute left out is logged unless ``where`` is None (a second pass)."""
    props: dict[str, Any] = {}
    for key, value in attrs.items():
        if value is None or key in skip:
            continue
        if key not in _GOOD_KEYS:
            if not isinstance(key, str) or not _IDENTIFIER.match(key):
                if where is not None:
                    logger.warning("%s: attribute %r left out (not a plain identifier)", where, key)
                continue
            _GOOD_KEYS.add(key)
        if type(value) in _SCALAR_TYPES:
            props[key] = value
        elif isinstance(value, (list, tuple)):
            items = list(value)
            if key in _MAP_LISTS or (items and all(isinstance(i, Mapping) for i in items)):
                flat = _flatten_maps(key, items)
                if flat is not None:
                    props.update(flat)
                    continue
            if _flat_list(items):
                props[key] = items
            else:
                props[key] = json.dumps(items, ensure_ascii=False, sort_keys=True, default=str)
        elif isinstance(value, Mapping):
            props[key] = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
        elif _scalar_kind(value) is not None:
            props[key] = value
        else:
            props[key] = str(value)
    return props


class _Where:
    """Names a node or an edge in a warning, formatted only when one is logged."""

    __slots__ = ("parts",)

    def __init__(self, *parts: object) -> None:
        self.parts = parts

    def __str__(self) -> str:
        return " ".join(map(str, self.parts))


def label_order(label: str) -> int:
    """Where ``label``'s rows come: the order of :data:`NODE_LABELS`."""
    return _LABEL_ORDER[label]


def group_order(group: Group) -> tuple[int, int, int]:
    """Where a relationship group's rows come: by type, then source and target label."""
    rel_type, source, target = group
    return _TYPE_ORDER[rel_type], _LABEL_ORDER[source], _LABEL_ORDER[target]


def node_row(node: Any, attrs: Mapping[str, Any], *, warn: bool = True) -> tuple[str, dict[str, Any]]:
    """``(label, {"id", "props"})`` of one node; ValueError for a missing or unknown label.

    ``warn=False`` for a second pass over the same graph: its warnings were logged once.
    """
    given = attrs.get("label")
    if given is None:
        raise ValueError(f"node {node!r} has no label (an edge endpoint that was never added?)")
    label = _LABELS[_check_label(given)]  # the schema's string, not the reader's copy
    where = _Where("node", node) if warn else None
    return label, {"id": str(node), "props": _properties(attrs, _SKIP_NODE_KEYS, where)}


def relationship_row(
    src: Any, dst: Any, key: Any, attrs: Mapping[str, Any], labels: Mapping[str, str], *, warn: bool = True
) -> tuple[Group, dict[str, Any]]:
    """``(group, {"src", "dst", "props"})`` of one edge; ``labels`` maps every node id to its label.

    ValueError for a type outside the schema or an end that is not a node.
    """
    rel_type = _check_type(attrs.get("type") or key)
    source, target = str(src), str(dst)
    for end in (source, target):
        if end not in labels:
            raise ValueError(f"node {end!r} has no label (an edge endpoint that was never added?)")
    where = _Where("edge", src, rel_type, dst) if warn else None
    row = {"src": source, "dst": target, "props": _properties(attrs, _SKIP_EDGE_KEYS, where)}
    return (rel_type, labels[source], labels[target]), row


def to_rows(graph: nx.MultiDiGraph) -> Rows:
    """Turn the kg graph into :class:`Rows` (flat properties; labels and types checked), held
    in memory; a load that must not hold them reads :mod:`~kg.export.neo4j.stream` instead.

    Raises ``ValueError`` for a node without a known ``label`` or an edge whose
    type is not in the schema.
    """
    labels: dict[str, str] = {}
    nodes: dict[str, list[dict[str, Any]]] = {}
    for node, attrs in graph.nodes(data=True):
        label, row = node_row(node, attrs)
        labels[row["id"]] = label
        nodes.setdefault(label, []).append(row)
    rels: dict[Group, list[dict[str, Any]]] = {}
    for src, dst, key, attrs in graph.edges(keys=True, data=True):
        group, row = relationship_row(src, dst, key, attrs, labels)
        rels.setdefault(group, []).append(row)
    return Rows(
        nodes={label: sorted(nodes[label], key=lambda r: r["id"]) for label in sorted(nodes, key=label_order)},
        relationships={
            group: sorted(rels[group], key=lambda r: (r["src"], r["dst"]))
            for group in sorted(rels, key=group_order)
        },
    )
