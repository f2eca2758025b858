"""Building hand-made kg graphs for tests, the way ``kg.assemble`` stores them.

>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> add_relation(g, "entity:a", "USES", "entity:b", {"paper": "paper:2", "start": 0, "end": 3})
>>> add_relation(g, "entity:a", "USES", "entity:b", {"paper": "paper:1", "start": 4, "end": 9})
>>> g.edges["entity:a", "entity:b", "USES"]["support"]
2
"""

from __future__ import annotations

import networkx as nx


def add_relation(g: nx.MultiDiGraph, subject: str, kind: str, obj: str, evidence: dict) -> None:
    """Add an entity-entity relation, or add ``evidence`` to it (sorted by paper and
    offset; ``support`` = papers giving evidence), as docs/graph-schema.md describes."""
    if g.has_edge(subject, obj, key=kind):
        data = g.edges[subject, obj, kind]
        data["evidence"] = sorted([*data["evidence"], evidence], key=lambda e: (e["paper"], e["start"]))
        data["support"] = len({e["paper"] for e in data["evidence"]})
    else:
        g.add_edge(subject, obj, key=kind, type=kind, support=1, evidence=[evidence])
