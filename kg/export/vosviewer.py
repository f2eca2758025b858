"""Map and network files for VOSviewer (``kg map`` writes them beside its GEXF files).

VOSviewer (van Eck & Waltman, https://www.vosviewer.com; manual section
"Map and network files") reads two tab-separated text files:

* the **map file**, one item per line after a header line
  ``id  label  x  y  cluster  weight<Links>  weight<Total link strength>  weight<Occurrences>``:
  ``id`` a positive integer, ``label`` the item's name, ``x``/``y`` its position
  (ours: :func:`kg.viz.layout.force_layout`; VOSviewer can also lay the map out
  itself), ``cluster`` a positive integer (our community number; 0 would mean
  none, so items outside any community get cluster ``max + 1``) and weight
  columns, ``weight<Name>``, which VOSviewer offers for sizing items;
* the **network file**, no header, one link per line: ``id1  id2  strength``, the
  raw co-occurrence count (VOSviewer applies its own association-strength
  normalisation when it lays out and clusters).

Labels have tabs and line breaks replaced by spaces, so every line has the same
columns, and are otherwise kept exactly: these files are for VOSviewer. A label
holding a comma or semicolon is enclosed in double quotes, as VOSviewer's
documentation of the format requires (a double quote inside is doubled). Clusters
are 1 to 1000, VOSviewer's range (communities past 999 share cluster 1000). A
network without items is not written: VOSviewer cannot open an empty map.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from kg.builddir import atomic_open

__all__ = ["VOS_COLUMNS", "read_vosviewer", "vosviewer_label", "write_vosviewer"]

VOS_COLUMNS = ["id", "label", "x", "y", "cluster", "weight<Links>", "weight<Total link strength>", "weight<Occurrences>"]


def _clean(text) -> str:
    return " ".join(str(text).split())


def vosviewer_label(text) -> str:
    """A label as a VOSviewer map file holds it: one line, in double quotes when it holds
    ``,`` ``;`` or ``"`` (a quote inside doubled).

    >>> print(vosviewer_label("GPT-4o"), vosviewer_label("Llama 2, 70B"), vosviewer_label('the "best" model'))
    GPT-4o "Llama 2, 70B" "the ""best"" model"
    """
    label = _clean(text)
    if any(char in label for char in ',;"'):
        return '"' + label.replace('"', '""') + '"'
    return label


def write_vosviewer(
    network: nx.Graph,
    map_path: str | Path,
    network_path: str | Path,
    *,
    positions: dict | None = None,
) -> dict:
    """Write ``network`` (a co-occurrence network) as a VOSviewer map and network file.

    Returns ``{node: VOSviewer id}``; empty, and nothing written, for a network without
    nodes. Clusters come from the nodes' ``community`` attribute.
    """
    nodes = sorted(network.nodes, key=str)
    if not nodes:
        return {}
    ids = {node: number for number, node in enumerate(nodes, start=1)}
    communities = [int(network.nodes[n].get("community") or 0) for n in nodes]
    spare = max(communities, default=0) + 1
    strength = dict(network.degree(weight="weight"))
    with atomic_open(map_path) as handle:
        handle.write("\t".join(VOS_COLUMNS) + "\n")
        for node, community in zip(nodes, communities):
            data = network.nodes[node]
            x, y = (positions or {}).get(node, (0.0, 0.0))
            row = [
                ids[node], vosviewer_label(data.get("name") or node), f"{x:.6f}", f"{y:.6f}",
                min(community or spare, 1000),
                network.degree(node), strength[node], int(data.get("paper_count") or 0),
            ]
            handle.write("\t".join(str(value) for value in row) + "\n")
    with atomic_open(network_path) as handle:
        for a, b, data in sorted(network.edges(data=True), key=lambda e: (ids[e[0]], ids[e[1]])):
            first, second = sorted((ids[a], ids[b]))
            handle.write(f"{first}\t{second}\t{data.get('weight', 1)}\n")
    return ids


def read_vosviewer(map_path: str | Path, network_path: str | Path) -> tuple[list[dict], list[tuple[int, int, float]]]:
    """Read a VOSviewer map and network file back: (items as dicts, links); quoted labels unquoted."""

    def unquote(text: str) -> str:
        return text[1:-1].replace('""', '"') if len(text) >= 2 and text[0] == text[-1] == '"' else text

    with open(map_path, encoding="utf-8") as handle:
        header = handle.readline().rstrip("\n").split("\t")
        items = [dict(zip(header, map(unquote, line.rstrip("\n").split("\t")))) for line in handle if line.strip()]
    with open(network_path, encoding="utf-8") as handle:
        links = []
        for line in handle:
            if line.strip():
                a, b, strength = line.split("\t")
                links.append((int(a), int(b), float(strength)))
    return items, links
