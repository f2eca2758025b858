"""The graph's schema in one place: node labels, edge types, the labels each edge type joins,
and the property keys of nodes and edges.

:mod:`kg.assemble` builds graphs of this shape. The exporters (:mod:`kg.export.neo4j`,
:mod:`kg.export.rdf`), the viewer (:mod:`kg.viz.html`) and the test graphs take the names
from here rather than writing them out again. ``tests/test_schema.py`` fails when
``docs/graph-schema.md``, the ontology (``ontology/``) or an exporter misses a label, an
edge type or a property key declared here. So adding an edge type means changing this
module and the code that extracts it; the tests then list what else must follow.

Examples
--------
>>> EDGES["RESULT_ON"].targets
('Dataset',)
>>> ("Paper", "PROPOSES", "Method") in PATTERNS, ("Paper", "PROPOSES", "Venue") in PATTERNS
(True, False)
>>> relation_type("evaluated_on")
'EVALUATED_ON'
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("venue:iclr", label="Venue", name="ICLR", city="Vienna")
>>> check_graph(g)
["node 'venue:iclr' (Venue): unknown key 'city'"]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "EDGES",
    "EDGE_KEYS",
    "EDGE_TYPES",
    "ENTITY_LABELS",
    "EdgeType",
    "EntityLabel",
    "MENTION_EDGES",
    "NODE_KEYS",
    "NODE_LABELS",
    "NODE_PROPERTIES",
    "PATTERNS",
    "PREDICATES",
    "Predicate",
    "RELATION_TYPES",
    "RESULT_EDGES",
    "RESULT_FIELDS",
    "check_graph",
    "edge_attributes",
    "edge_keys",
    "node_attributes",
    "node_keys",
    "relation_type",
]

# ---------------------------------------------------------------- nodes

EntityLabel = Literal["Method", "Dataset", "Model", "Metric", "Task"]
#: The research entities the extractor finds (``kgo:ResearchEntity`` in the ontology).
ENTITY_LABELS: tuple[EntityLabel, ...] = get_args(EntityLabel)

#: Every node label, in the order the Neo4j export writes them.
NODE_LABELS: tuple[str, ...] = ("Paper", "Venue", *ENTITY_LABELS, "CodeRepository", "Result")

#: Keys every node has: its label and its display name.
NODE_KEYS = ("label", "name")

_ENTITY_KEYS = ("aliases", "catalogue_id", "generic", "paper_count", "mention_count", "proposed_by")

#: The other keys of each label, in the order :mod:`kg.assemble` writes them (a key whose
#: value is not known is there with ``None``).
NODE_PROPERTIES: dict[str, tuple[str, ...]] = {
    "Paper": ("title", "abstract", "year", "venue", "doi", "arxiv_id", "url", "authors",
              "source_path", "source_index", "source_id"),
    "Venue": (),
    **dict.fromkeys(ENTITY_LABELS, _ENTITY_KEYS),
    "CodeRepository": ("url",),
    "Result": ("value", "metric", "number", "unit", "delta", "direction", "setting", "paper",
               "start", "end", "sentence_start", "sentence_end"),
}

# ---------------------------------------------------------------- edges

Predicate = Literal["evaluated_on", "compared_with", "uses", "extends", "applied_to", "measured_by"]
#: The relations the extractor states between two entities, as ``papers.jsonl`` names them.
PREDICATES: tuple[Predicate, ...] = get_args(Predicate)


def relation_type(predicate: str) -> str:
    """The edge type of a relation: its predicate in capitals."""
    return predicate.upper()


#: Entity -> entity edges, one per predicate: EVALUATED_ON, COMPARED_WITH, USES, EXTENDS,
#: APPLIED_TO, MEASURED_BY. Each collects the evidence of every paper stating it.
RELATION_TYPES: tuple[str, ...] = tuple(relation_type(p) for p in PREDICATES)

#: Result -> entity edges, each from one field of :class:`kg.types.Result`: the method or
#: model it is of, the dataset, task and metric it is on, the baseline it is against.
RESULT_FIELDS: dict[str, str] = {
    "RESULT_OF": "subject",
    "RESULT_ON": "dataset",
    "RESULT_FOR": "task",
    "RESULT_MEASURED_BY": "metric_entity",
    "RESULT_AGAINST": "baseline",
}
RESULT_EDGES: tuple[str, ...] = tuple(RESULT_FIELDS)

#: Paper -> entity edges: a paper links each of its entities with exactly one of them.
MENTION_EDGES = ("PROPOSES", "MENTIONS")

#: The key every edge has: its type, which is also its key in the ``MultiDiGraph``.
EDGE_KEYS = ("type",)


@dataclass(frozen=True)
class EdgeType:
    """An edge type: the labels it goes from and to, and its other property keys (in the
    order :mod:`kg.assemble` writes them)."""

    name: str
    sources: tuple[str, ...]
    targets: tuple[str, ...]
    properties: tuple[str, ...] = ()


_ACTORS = ("Method", "Model")  # who a result is of, or is compared against

#: Every edge type by name, in the order the Neo4j export writes them.
EDGES: dict[str, EdgeType] = {edge.name: edge for edge in (
    EdgeType("PUBLISHED_IN", ("Paper",), ("Venue",), ("year",)),
    *(EdgeType(kind, ("Paper",), ENTITY_LABELS, ("mentions", "count")) for kind in MENTION_EDGES),
    EdgeType("HAS_CODE", ("Paper",), ("CodeRepository",)),
    *(EdgeType(kind, ENTITY_LABELS, ENTITY_LABELS, ("support", "evidence")) for kind in RELATION_TYPES),
    EdgeType("REPORTS", ("Paper",), ("Result",)),
    EdgeType("RESULT_OF", ("Result",), _ACTORS),
    EdgeType("RESULT_ON", ("Result",), ("Dataset",)),
    EdgeType("RESULT_FOR", ("Result",), ("Task",)),
    EdgeType("RESULT_MEASURED_BY", ("Result",), ("Metric",)),
    EdgeType("RESULT_AGAINST", ("Result",), _ACTORS),
)}
EDGE_TYPES: tuple[str, ...] = tuple(EDGES)

#: Every allowed ``(source label, edge type, target label)``.
PATTERNS: frozenset[tuple[str, str, str]] = frozenset(
    (source, edge.name, target) for edge in EDGES.values() for source in edge.sources for target in edge.targets
)


def node_keys(label: str) -> tuple[str, ...]:
    """Every key of a node with ``label``."""
    return NODE_KEYS + NODE_PROPERTIES[label]


def edge_keys(edge_type: str) -> tuple[str, ...]:
    """Every key of an edge of ``edge_type``."""
    return EDGE_KEYS + EDGES[edge_type].properties


# ---------------------------------------------------------------- building and checking a graph


def node_attributes(label: str, name: str, **properties) -> dict:
    """The attributes of a node built by hand (a test graph, a benchmark): every key of
    ``label``, ``None`` where not given. ``ValueError`` names a key the schema does not know.

    >>> node_attributes("CodeRepository", "https://github.com/a/b")
    {'label': 'CodeRepository', 'name': 'https://github.com/a/b', 'url': None}
    """
    keys = NODE_PROPERTIES[label]
    _refuse_unknown(f"a {label} node", properties, keys)
    return {"label": label, "name": name, **{key: properties.get(key) for key in keys}}


def edge_attributes(edge_type: str, **properties) -> dict:
    """The attributes of an edge built by hand: every key of ``edge_type``, ``None`` where not
    given (a mention edge's ``count`` is the number of its ``mentions``).

    >>> edge_attributes("PROPOSES", mentions=[{"start": 0, "end": 5}])
    {'type': 'PROPOSES', 'mentions': [{'start': 0, 'end': 5}], 'count': 1}
    """
    keys = EDGES[edge_type].properties
    _refuse_unknown(f"a {edge_type} edge", properties, keys)
    if edge_type in MENTION_EDGES and "count" not in properties:
        properties["count"] = len(properties.get("mentions") or ())
    return {"type": edge_type, **{key: properties.get(key) for key in keys}}


def _refuse_unknown(what: str, properties: dict, keys: tuple[str, ...]) -> None:
    unknown = sorted(set(properties) - set(keys))
    if unknown:
        raise ValueError(f"{what} has no key {', '.join(map(repr, unknown))} (kg.schema: {', '.join(keys)})")



def check_graph(graph: nx.MultiDiGraph, *, complete: bool = False) -> list[str]:
    """What in ``graph`` the schema does not allow: unknown labels, edge types and keys, an
    edge between labels its type does not join, an edge whose ``type`` is not its key. With
    ``complete``, a missing key too (graphs :mod:`kg.assemble` builds have every key).
    Empty for a graph of this shape."""
    problems = []
    labels = {}
    for node, attrs in graph.nodes(data=True):
        label = labels[node] = attrs.get("label")
        where = f"node {node!r} ({label})"
        if label not in NODE_PROPERTIES:
            problems.append(f"node {node!r}: unknown label {label!r}")
            continue
        problems += _key_problems(where, attrs, node_keys(label), complete)
    for u, v, key, attrs in graph.edges(keys=True, data=True):
        where = f"edge {u!r} -{key}-> {v!r}"
        if key not in EDGES:
            problems.append(f"{where}: unknown edge type")
            continue
        if attrs.get("type") != key:
            problems.append(f"{where}: type {attrs.get('type')!r} is not its key")
        if (labels[u], key, labels[v]) not in PATTERNS:
            problems.append(f"{where}: {key} does not join {labels[u]} to {labels[v]}")
        problems += _key_problems(where, attrs, edge_keys(key), complete)
    return problems


def _key_problems(where: str, attrs: dict, keys: tuple[str, ...], complete: bool) -> list[str]:
    problems = [f"{where}: unknown key {key!r}" for key in attrs if key not in keys]
    if complete:
        problems += [f"{where}: no key {key!r}" for key in keys if key not in attrs]
    return problems
