"""Read what ``kg build`` wrote back into the graph (see docs/graph-schema.md)."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from kg.assemble import ENTITY_LABELS

__all__ = ["ENTITY_LABELS", "graph_path", "read_graph"]


def graph_path(path: str | Path) -> Path:
    """``OUTDIR/graph.json`` for a build directory; a file path is returned as is."""
    path = Path(path)
    if path.is_dir():
        path = path / "graph.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no graph.json here (run `kg build INPUTS -o OUTDIR` first)")
    return path


def read_graph(path: str | Path) -> nx.MultiDiGraph:
    """The ``networkx.MultiDiGraph`` of a build directory or its ``graph.json`` (node-link JSON)."""
    with open(graph_path(path), encoding="utf-8") as handle:
        data = json.load(handle)
    return nx.node_link_graph(data, directed=True, multigraph=True, edges="edges")
