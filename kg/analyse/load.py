"""Read what ``kg build`` wrote back into the graph (see docs/graph-schema.md)."""

from __future__ import annotations

from kg.schema import ENTITY_LABELS
from kg.export.files import graph_path, read_graph

__all__ = ["ENTITY_LABELS", "graph_path", "read_graph"]
