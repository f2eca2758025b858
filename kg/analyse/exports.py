"""Files other mapping tools open: GEXF for Gephi, map and network files for VOSviewer.

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

Tables meant for spreadsheets go through :func:`write_csv`, which neutralises
cells that a spreadsheet would run as a formula (``=HYPERLINK(...)`` as a venue).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import networkx as nx

from kg.builddir import atomic_open
from kg.export.files import xml_text

__all__ = [
    "read_vosviewer", "spreadsheet_cell", "to_gexf_graph", "vosviewer_label", "write_csv", "write_gexf",
    "write_vosviewer",
]

VOS_COLUMNS = ["id", "label", "x", "y", "cluster", "weight<Links>", "weight<Total link strength>", "weight<Occurrences>"]


#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV injection"): = + - @,
#: and tab or carriage return before them.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value):
    """A CSV cell that a spreadsheet shows as the text it is: a string starting with
    ``= + - @`` (or tab, carriage return) gets a leading apostrophe. Numbers stay numbers.

    >>> print(spreadsheet_cell('=HYPERLINK("http://x", "y")'))
    '=HYPERLINK("http://x", "y")
    >>> spreadsheet_cell("-5%"), spreadsheet_cell(-5), spreadsheet_cell("GPT-4o")
    ("'-5%", -5, 'GPT-4o')
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def write_csv(path: str | Path, header: Sequence, rows: Iterable[Sequence]) -> Path:
    """Write a table for spreadsheets (atomically), every cell through :func:`spreadsheet_cell`."""
    with atomic_open(path) as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([spreadsheet_cell(cell) for cell in header])
        writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return Path(path)


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


def _scalar(value):
    """A GEXF attribute value: lists as JSON, strings without characters XML cannot hold."""
    if isinstance(value, (list, tuple, dict)):
        return xml_text(json.dumps(value, ensure_ascii=False))
    return xml_text(value)


def to_gexf_graph(graph: nx.Graph, *, positions: dict | None = None, colours: dict | None = None) -> nx.Graph:
    """A copy of ``graph`` that GEXF can hold and Gephi shows well.

    The node's type (our ``label``) becomes ``type`` and its ``name`` the GEXF label;
    lists become JSON strings and ``None`` values are left out; parallel edges of a
    multigraph become one edge with ``types`` (``;``-joined) and ``weight`` (their
    number). With ``positions`` / ``colours`` (type -> ``#rrggbb``) nodes get Gephi's
    ``viz`` position and colour.
    """
    simple = nx.DiGraph() if graph.is_directed() else nx.Graph()
    for node, data in sorted(graph.nodes(data=True), key=lambda n: str(n[0])):
        attrs = {}
        for key, value in data.items():
            if value is None or key in ("viz",):
                continue
            attrs["type" if key == "label" else key] = _scalar(value)
        attrs["label"] = xml_text(_clean(data.get("name") or node))
        attrs.pop("name", None)
        viz = {}
        if positions and node in positions:
            x, y = positions[node]
            viz["position"] = {"x": float(x) * 1000, "y": float(y) * 1000, "z": 0.0}
        colour = (colours or {}).get(data.get("label"))
        if colour:
            viz["color"] = {"r": int(colour[1:3], 16), "g": int(colour[3:5], 16), "b": int(colour[5:7], 16), "a": 1.0}
        if viz:
            attrs["viz"] = viz
        simple.add_node(xml_text(str(node)), **attrs)
    edges = graph.edges(keys=True, data=True) if graph.is_multigraph() else ((u, v, None, d) for u, v, d in graph.edges(data=True))
    for u, v, key, data in sorted(edges, key=lambda e: (str(e[0]), str(e[1]), str(e[2]))):
        u, v = xml_text(str(u)), xml_text(str(v))
        kind = xml_text(str(data.get("type", key))) if (key is not None or "type" in data) else None
        if simple.has_edge(u, v) and graph.is_multigraph():
            existing = simple.edges[u, v]
            existing["types"] = ";".join(sorted(set(existing["types"].split(";")) | {kind}))
            existing["weight"] += 1
            continue
        attrs = {}
        for name, value in data.items():
            if value is None or name in ("type", "mentions", "evidence"):
                continue
            attrs[name] = _scalar(value)
        if graph.is_multigraph():
            attrs["types"] = kind or ""
            attrs["weight"] = 1
        simple.add_edge(u, v, **attrs)
    return simple


def write_gexf(graph: nx.Graph, path: str | Path, **kwargs) -> Path:
    """Write ``graph`` as GEXF 1.2 (see :func:`to_gexf_graph` for ``positions`` / ``colours``)."""
    with atomic_open(path, "wb") as handle:
        nx.write_gexf(to_gexf_graph(graph, **kwargs), handle, encoding="utf-8", version="1.2draft")
    return Path(path)
