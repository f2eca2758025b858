"""Graph files: node-link JSON, GraphML, and ``papers.jsonl``; all written atomically
(:func:`kg.builddir.atomic_open`), so an interrupted build never leaves a file that looks finished.

XML 1.0 has no way to write most control characters (``\\x0c`` from a PDF's
page break, ``\\x07``), not even as ``&#12;``, so the GraphML (and GEXF) writers
drop them from ids and values (:func:`xml_text`); ``graph.json`` and
``papers.jsonl`` keep the text exactly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import networkx as nx

from kg.builddir import BUILD_MARKS, BuildDir, atomic_open
from kg.graphstore import SortedGraph, sorted_graph
from kg.types import PaperRecord

__all__ = [
    "BUILD_MARKS",
    "GRAPHML_TAIL",
    "NODE_LINK_SEPARATOR",
    "atomic_open",
    "graphml_edges",
    "graphml_head",
    "graphml_kinds",
    "graphml_nodes",
    "iter_graphml",
    "merge_graphml_kinds",
    "node_link_edges",
    "node_link_nodes",
    "process_dir",
    "graph_path",
    "incomplete_build",
    "read_graph",
    "to_graphml_graph",
    "write_graphml",
    "write_graphml_parts",
    "write_jsonl",
    "write_node_link",
    "xml_text",
]

#: Characters XML 1.0 cannot hold: C0 controls but tab and line ends, lone surrogates, U+FFFE/F.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: Any) -> Any:
    r"""A string without the characters XML cannot hold (other values as they are).

    >>> xml_text("page\x0cbreak\x00")
    'pagebreak'
    """
    return _NOT_XML.sub("", value) if isinstance(value, str) else value


def process_dir(parent: str | Path, prefix: str) -> Path:
    """A new directory ``<prefix><pid>-<random>`` in ``parent`` (mode 700), made after removing
    the ones of processes that no longer run: a killed process cannot remove its own."""
    remove_orphan_dirs(parent, prefix)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))


def remove_orphan_dirs(parent: str | Path, prefix: str) -> list[Path]:
    """Remove the :func:`process_dir` directories (ours, by uid) of processes that are gone."""
    removed = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        pid = entry.name[len(prefix) :].split("-", 1)[0] if entry.name.startswith(prefix) else ""
        try:
            mine = entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid()
        except OSError:
            continue
        if pid.isdigit() and mine and not _running(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def write_node_link(graph: nx.MultiDiGraph | SortedGraph, path: str | Path) -> None:
    """``nx.node_link_data`` of the graph with nodes and edges in id order, as ``json.dump``
    with ``indent=1`` writes it, streamed one node or edge at a time (a store never loads whole)."""
    source = sorted_graph(graph)
    meta = graph.graph if isinstance(graph, nx.Graph) else {}
    write_node_link_parts(path, node_link_nodes(source), node_link_edges(source), meta)


def node_link_nodes(graph: SortedGraph) -> Iterator[str]:
    """The text of each node in ``graph.json``'s ``nodes`` list, in id order."""
    for node, attrs in graph.nodes():
        yield _json_item({**attrs, "id": node}, "  ")


def node_link_edges(graph: SortedGraph) -> Iterator[str]:
    """The text of each edge in ``graph.json``'s ``edges`` list, in id order."""
    for u, v, k, attrs in graph.edges():
        yield _json_item({**attrs, "source": u, "target": v, "key": k}, "  ")


#: What joins two items of a list in ``graph.json``.
NODE_LINK_SEPARATOR = ",\n  "


def write_node_link_parts(path: str | Path, nodes: Iterable[str], edges: Iterable[str], meta: dict | None = None) -> None:
    """``graph.json`` from the texts of its nodes and edges in order: each text one item
    (:func:`node_link_nodes`) or several joined by :data:`NODE_LINK_SEPARATOR` (a range of
    them written elsewhere, :mod:`kg.cluster`); empty texts are skipped."""
    with atomic_open(path) as handle:
        handle.write('{\n "directed": true,\n "multigraph": true,\n "graph": ' + _json_item(meta or {}, " "))
        handle.write(',\n "nodes": ')
        _json_list(handle, nodes)
        handle.write(',\n "edges": ')
        _json_list(handle, edges)
        handle.write("\n}")


def _json_item(value: Any, indent: str) -> str:
    """``value`` as ``json.dump(..., indent=1)`` writes it at the depth of ``indent``
    (JSON strings hold no raw line break, so every line can be shifted)."""
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + indent)


def _json_list(handle: IO[str], items: Iterable[str]) -> None:
    first = True
    for item in items:
        if item:
            handle.write(("[\n  " if first else NODE_LINK_SEPARATOR) + item)
            first = False
    handle.write("[]" if first else "\n ]")


def _graphml_scalars(attrs: dict) -> dict:
    """GraphML holds scalars only: lists become JSON strings and ``None`` values are left out;
    strings lose the characters XML cannot hold (:func:`xml_text`)."""
    out = {}
    for key, value in attrs.items():
        if value is None:
            continue
        out[key] = xml_text(json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else value)
    return out


def _graphml_node(node: str, attrs: dict) -> tuple[str, dict]:
    """A node as GraphML holds it: ``label`` is its display name (Gephi labels nodes by the
    ``label`` key), ``type`` its type (our ``label``); ``name`` is not repeated."""
    attrs = dict(attrs)
    kind, name = attrs.pop("label", None), attrs.pop("name", None)
    return xml_text(node), _graphml_scalars({"label": name if name is not None else node, "type": kind, **attrs})


def _graphml_edges(graph: SortedGraph, first: int = 0) -> Iterator[tuple[str, str, str, dict]]:
    """Edges as GraphML holds them, each with an ``id`` of its own (``e0``, ``e1`` ... in sorted
    order, from ``e<first>``): Gephi keeps only the first edge of each id."""
    for number, (u, v, k, attrs) in enumerate(graph.edges(), first):
        yield xml_text(u), xml_text(v), xml_text(k), _graphml_scalars({**attrs, "id": f"e{number}"})


def to_graphml_graph(graph: nx.MultiDiGraph | SortedGraph) -> nx.MultiDiGraph:
    """The graph as GraphML holds it, and as Gephi, yEd and Cytoscape show it (see
    :func:`_graphml_node`, :func:`_graphml_edges`); lists and dicts become JSON strings and
    ``None`` values are left out; ids and strings lose the characters XML cannot hold."""
    source = sorted_graph(graph)
    out = nx.MultiDiGraph()
    for node, attrs in source.nodes():
        node, data = _graphml_node(node, attrs)
        out.add_node(node, **data)
    for u, v, k, data in _graphml_edges(source):
        out.add_edge(u, v, key=k, **data)
    return out


#: GraphML ``attr.type`` of a Python value (``bool`` before ``int``: a bool is an int).
_GRAPHML_TYPES = ((bool, "boolean"), (int, "long"), (float, "double"), (str, "string"))


def _graphml_kind(value: Any) -> str:
    return next(name for kind, name in _GRAPHML_TYPES if isinstance(value, kind))


def _graphml_value(value: Any) -> str:
    """The text of a ``<data>`` element: XML-escaped, and ``\\r`` as ``&#13;``, which a parser
    would otherwise read as a line feed."""
    from xml.sax.saxutils import escape

    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return escape(text, {"\r": "&#13;"})


def iter_graphml(graph: nx.MultiDiGraph | SortedGraph) -> Iterator[str]:
    """The lines of the GraphML file of ``graph`` (see :func:`to_graphml_graph`), streamed:
    a first pass over the graph finds each attribute's type (``string`` when its values'
    types differ), the second writes nodes and edges.

    Key ids are ``node_<name>`` and ``edge_<name>``, never the ``d0``, ``d1`` ... that
    Gephi reads by position (it takes the node key ``d3`` and the edge key ``d7`` as labels,
    yEd's defaults), and edge ids are unique.

    >>> g = nx.MultiDiGraph()
    >>> g.add_node("entity:a", label="Method", name="A & B")
    >>> _ = g.add_edge("entity:a", "entity:a", key="USES", type="USES", support=2)
    >>> print("".join(iter_graphml(g)), end="")  # doctest: +ELLIPSIS
    <?xml version="1.0" encoding="UTF-8"?>
    <graphml ...>
      <key id="node_label" for="node" attr.name="label" attr.type="string"/>
      <key id="node_type" for="node" attr.name="type" attr.type="string"/>
      <key id="edge_type" for="edge" attr.name="type" attr.type="string"/>
      <key id="edge_support" for="edge" attr.name="support" attr.type="long"/>
      <graph id="G" edgedefault="directed">
        <node id="entity:a">
          <data key="node_label">A &amp; B</data>
          <data key="node_type">Method</data>
        </node>
        <edge id="e0" source="entity:a" target="entity:a">
          <data key="edge_type">USES</data>
          <data key="edge_support">2</data>
        </edge>
      </graph>
    </graphml>
    """
    source = sorted_graph(graph)
    yield from graphml_head(graphml_kinds(source))
    yield from graphml_nodes(source)
    yield from graphml_edges(source)
    yield GRAPHML_TAIL


#: The last lines of a GraphML file.
GRAPHML_TAIL = "  </graph>\n</graphml>\n"


def graphml_kinds(graph: SortedGraph) -> dict[str, dict[str, set[str]]]:
    """The first pass of :func:`iter_graphml`: for nodes and for edges, each attribute (in the
    order first met) with the GraphML types of its values."""
    kinds: dict[str, dict[str, set[str]]] = {"node": {}, "edge": {}}
    for node, attrs in graph.nodes():
        for key, value in _graphml_node(node, attrs)[1].items():
            kinds["node"].setdefault(key, set()).add(_graphml_kind(value))
    for _, _, _, data in _graphml_edges(graph):
        for key, value in data.items():
            if key != "id":
                kinds["edge"].setdefault(key, set()).add(_graphml_kind(value))
    return kinds


def merge_graphml_kinds(parts: Iterable[dict[str, dict[str, set[str]]]]) -> dict[str, dict[str, set[str]]]:
    """The :func:`graphml_kinds` of a graph from those of consecutive ranges of its nodes."""
    kinds: dict[str, dict[str, set[str]]] = {"node": {}, "edge": {}}
    for part in parts:
        for scope, found in part.items():
            for key, seen in found.items():
                kinds[scope].setdefault(key, set()).update(seen)
    return kinds


def graphml_head(kinds: dict[str, dict[str, set[str]]]) -> Iterator[str]:
    """The lines before the first node: the ``<key>`` declarations of :func:`graphml_kinds`
    (an attribute whose values' types differ is a ``string``)."""
    from xml.sax.saxutils import quoteattr

    yield '<?xml version="1.0" encoding="UTF-8"?>\n'
    yield ('<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
           'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
           'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
    for scope, found in kinds.items():
        for key, seen in found.items():
            kind = next(iter(seen)) if len(seen) == 1 else "string"
            yield (f'  <key id={quoteattr(f"{scope}_{key}")} for="{scope}" attr.name={quoteattr(key)} '
                   f'attr.type="{kind}"/>\n')
    yield '  <graph id="G" edgedefault="directed">\n'


def graphml_nodes(graph: SortedGraph) -> Iterator[str]:
    """The ``<node>`` elements, in id order."""
    from xml.sax.saxutils import quoteattr

    for node, attrs in graph.nodes():
        node, data = _graphml_node(node, attrs)
        yield f"    <node id={quoteattr(node)}>\n"
        for key, value in data.items():
            yield f'      <data key={quoteattr("node_" + key)}>{_graphml_value(value)}</data>\n'
        yield "    </node>\n"


def graphml_edges(graph: SortedGraph, first: int = 0) -> Iterator[str]:
    """The ``<edge>`` elements in order, numbered from ``e<first>``."""
    from xml.sax.saxutils import quoteattr

    for u, v, _, data in _graphml_edges(graph, first):
        yield f"    <edge id={quoteattr(data['id'])} source={quoteattr(u)} target={quoteattr(v)}>\n"
        for key, value in data.items():
            if key != "id":
                yield f'      <data key={quoteattr("edge_" + key)}>{_graphml_value(value)}</data>\n'
        yield "    </edge>\n"


def write_graphml(graph: nx.MultiDiGraph | SortedGraph, path: str | Path) -> None:
    with atomic_open(path) as handle:
        handle.writelines(iter_graphml(graph))


def write_graphml_parts(path: str | Path, kinds: dict[str, dict[str, set[str]]], nodes: Iterable[str],
                        edges: Iterable[str]) -> None:
    """The GraphML file from the texts of consecutive ranges of a graph's nodes and of their
    out-edges (:func:`graphml_nodes`, :func:`graphml_edges` numbered on from the range before,
    written apart, :mod:`kg.cluster`) and the merged :func:`graphml_kinds` of the ranges."""
    with atomic_open(path) as handle:
        handle.writelines(graphml_head(kinds))
        handle.writelines(nodes)
        handle.writelines(edges)
        handle.write(GRAPHML_TAIL)


def write_jsonl(records: Iterable[PaperRecord | dict], path: str | Path) -> int:
    """Write one JSON object per line; returns the number written."""
    count = 0
    with atomic_open(path) as handle:
        for record in records:
            data = record.to_json() if isinstance(record, PaperRecord) else record
            handle.write(json.dumps(data, ensure_ascii=False) + "\n")
            count += 1
    return count


def incomplete_build(path: str | Path) -> bool:
    """``path`` is a directory ``kg build`` wrote into without finishing (:meth:`BuildDir.incomplete`)."""
    return BuildDir(path).incomplete()


def graph_path(path: str | Path) -> Path:
    """``BUILD_DIR/graph.json`` for a build directory; a file path is returned as is (:meth:`BuildDir.graph_file`)."""
    return BuildDir(path).graph_file()


def read_graph(source: nx.MultiDiGraph | str | Path) -> nx.MultiDiGraph:
    """A graph as it is, or the graph of a build directory or of its node-link ``graph.json``."""
    if isinstance(source, nx.Graph):
        return source
    return BuildDir(source).read_graph()
