"""The map's networks for other tools: GEXF for Gephi, map and network files for VOSviewer."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from kg.analyse import plots
from kg.analyse.report.analysis import MapResult
from kg.export.gexf import write_gexf
from kg.export.vosviewer import write_vosviewer
from kg.viz.html import TYPE_COLOURS
from kg.viz.layout import force_layout

__all__ = ["write_networks"]


def write_networks(result: MapResult, graph: nx.MultiDiGraph, directory: Path, *,
                   graph_positions: dict | None = None, seed: int = 42) -> dict[str, Path]:
    """``graph.gexf`` (placed at ``graph_positions`` when given), ``cooccurrence.gexf`` (community
    colours) and ``vosviewer/``: a map and a network file per network that has entities."""
    outputs = {
        "graph.gexf": write_gexf(graph, directory / "graph.gexf", positions=graph_positions, colours=TYPE_COLOURS),
        "cooccurrence.gexf": write_gexf(_community_coloured(result.network), directory / "cooccurrence.gexf",
                                        positions=result.positions),
    }
    vos = directory / "vosviewer"
    vos.mkdir(exist_ok=True)
    if write_vosviewer(result.network, vos / "entities_map.txt", vos / "entities_network.txt",
                       positions=result.positions):
        outputs["vosviewer:entities"] = vos / "entities_map.txt"
    for name, pair in result.pair_networks.items():
        if write_vosviewer(pair, vos / f"{name}_map.txt", vos / f"{name}_network.txt",
                           positions=force_layout(pair, seed=seed) if len(pair) else {}):
            outputs[f"vosviewer:{name}"] = vos / f"{name}_map.txt"
    return outputs


def _community_coloured(network: nx.Graph) -> nx.Graph:
    """A copy of ``network`` whose nodes carry their community's colour (Gephi's ``viz``)."""
    coloured = network.copy()
    for node in network:
        number = network.nodes[node].get("community") or 0
        if 0 < number <= len(plots.COMMUNITY_COLOURS):
            coloured.nodes[node]["viz"] = {"color": _rgb(plots.COMMUNITY_COLOURS[number - 1])}
    return coloured


def _rgb(colour: str) -> dict:
    return {"r": int(colour[1:3], 16), "g": int(colour[3:5], 16), "b": int(colour[5:7], 16), "a": 1.0}
