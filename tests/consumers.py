"""The import rules of the tools kg's files are opened in, where the tool itself cannot run here.

* :func:`gephi_graphml` reads a GraphML file the way Gephi's ``ImporterGraphML`` does
  (gephi/gephi, ``modules/ImportPlugin/.../ImporterGraphML.java``): a key is a node or edge
  *property* when its id, else its ``attr.name``, is one Gephi knows (node: ``label``, ``d3``
  (yEd's default label key), ``x``, ``y``, ``xpos``, ``ypos``, ``z``, ``size``, ``r``, ``g``,
  ``b``; edge: ``label``, ``edgelabel``, ``d7``, ``weight``, ``Edge Weight``, ``id``, ``edgeid``,
  ``r``, ``g``, ``b``), and the import container keeps only the first edge of each id.
* :func:`graphml_problems` checks what yEd, Cytoscape and every GraphML reader rely on (the
  GraphML 1.0 primer and schema): keys declared once, before the graph, with ``for`` and an
  ``attr.type`` GraphML defines; every ``<data>`` names a key declared for its element, with a
  value of that type; node ids unique, edge ends declared nodes, edge ids unique.
* :func:`gexf_problems` checks a GEXF 1.2 file as Gephi's ``ImporterGEXF`` reads it: unique node
  and edge ids, edge ends declared, every ``attvalue`` naming a declared attribute, numeric
  weights.
* :func:`vosviewer_problems` checks a VOSviewer map and network file against VOSviewer's
  documentation ("VOSviewer map and network files", app.vosviewer.com/docs/file-types): known
  columns, positive integer ids, clusters 1-1000, non-negative weights, labels holding ``,`` or
  ``;`` enclosed in double quotes; network lines ``id1 id2 [strength]`` naming items of the map.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

GRAPHML_NS = "{http://graphml.graphdrawing.org/xmlns}"
GRAPHML_TYPES = {"boolean", "int", "long", "float", "double", "string"}
GEPHI_NODE_PROPERTIES = {"label": "label", "d3": "label", "x": "x", "y": "y", "xpos": "x", "ypos": "y",
                         "z": "z", "size": "size", "r": "r", "g": "g", "b": "b"}
GEPHI_EDGE_PROPERTIES = {"label": "label", "edgelabel": "label", "d7": "label", "weight": "weight",
                         "Edge Weight": "weight", "id": "id", "edgeid": "id", "r": "r", "g": "g", "b": "b"}
NUMERIC = {"x", "y", "z", "size", "r", "g", "b", "weight"}


@dataclass
class GephiImport:
    """What Gephi would hold after importing a GraphML file."""

    labels: dict[str, str] = field(default_factory=dict)  # node id -> the label Gephi shows
    edges: dict[str, tuple[str, str]] = field(default_factory=dict)  # edge id -> (source, target)
    edge_elements: int = 0
    issues: list[str] = field(default_factory=list)


def gephi_graphml(path: Path) -> GephiImport:
    """Import ``path`` by Gephi's GraphML rules (see the module docstring)."""
    result = GephiImport()
    node_props: dict[str, str] = {}
    edge_props: dict[str, str] = {}
    for _, element in ET.iterparse(path, events=("end",)):
        tag = element.tag.removeprefix(GRAPHML_NS)
        if tag == "key":
            key_id, title = element.get("id", ""), element.get("attr.name") or element.get("id", "")
            table = GEPHI_NODE_PROPERTIES if element.get("for") == "node" else GEPHI_EDGE_PROPERTIES
            prop = table.get(key_id) or table.get(title)
            if prop and element.get("for") in ("node", "edge"):
                (node_props if element.get("for") == "node" else edge_props)[key_id] = prop
        elif tag == "node":
            node_id = element.get("id", "")
            if not node_id:
                result.issues.append("a node without an id")
                continue
            for data in element.iter(GRAPHML_NS + "data"):
                prop, value = node_props.get(data.get("key", "")), (data.text or "").strip()
                if prop == "label":
                    result.labels[node_id] = value
                elif prop in NUMERIC:
                    _number(value, f"node {node_id}: {prop}", result.issues)
            element.clear()
        elif tag == "edge":
            result.edge_elements += 1
            edge_id = element.get("id") or f"#{result.edge_elements}"
            for data in element.iter(GRAPHML_NS + "data"):
                prop, value = edge_props.get(data.get("key", "")), (data.text or "").strip()
                if prop in NUMERIC:
                    _number(value, f"edge {edge_id}: {prop}", result.issues)
            if edge_id in result.edges:
                result.issues.append(f"edge id {edge_id!r} already exists: Gephi drops this edge")
            else:
                result.edges[edge_id] = (element.get("source", ""), element.get("target", ""))
            element.clear()
    return result


def _number(value: str, where: str, issues: list[str]) -> None:
    try:
        float(value.replace(",", "."))
    except ValueError:
        issues.append(f"{where}: {value!r} is not a number")


def graphml_problems(path: Path) -> list[str]:
    """What stops a GraphML reader (yEd, Cytoscape, igraph) from reading ``path`` as written."""
    problems: list[str] = []
    root = ET.parse(path).getroot()
    if root.tag != GRAPHML_NS + "graphml":
        return [f"root element {root.tag}, not graphml in the GraphML namespace"]
    keys: dict[str, tuple[str, str]] = {}
    graph_seen = False
    for child in root:
        tag = child.tag.removeprefix(GRAPHML_NS)
        if tag == "key":
            if graph_seen:
                problems.append(f"key {child.get('id')} declared after the graph")
            key_id = child.get("id")
            if not key_id or key_id in keys:
                problems.append(f"key id {key_id!r} missing or declared twice")
            if child.get("for") not in ("node", "edge", "graph", "all"):
                problems.append(f"key {key_id}: for={child.get('for')!r}")
            if child.get("attr.type", "string") not in GRAPHML_TYPES:
                problems.append(f"key {key_id}: attr.type {child.get('attr.type')!r} is not a GraphML type")
            if not child.get("attr.name"):
                problems.append(f"key {key_id}: no attr.name")
            keys[key_id] = (child.get("for"), child.get("attr.type", "string"))
        elif tag == "graph":
            graph_seen = True
    graphs = root.findall(GRAPHML_NS + "graph")
    if len(graphs) != 1:
        return problems + [f"{len(graphs)} graph elements"]
    nodes: set[str] = set()
    edges: set[str] = set()
    for element in graphs[0]:
        tag = element.tag.removeprefix(GRAPHML_NS)
        if tag == "node":
            node_id = element.get("id")
            if not node_id or node_id in nodes:
                problems.append(f"node id {node_id!r} missing or repeated")
            nodes.add(node_id)
        elif tag == "edge":
            edge_id = element.get("id")
            if edge_id is not None:
                if edge_id in edges:
                    problems.append(f"edge id {edge_id!r} repeated")
                edges.add(edge_id)
        else:
            continue
        for data in element.findall(GRAPHML_NS + "data"):
            declared = keys.get(data.get("key"))
            if declared is None or declared[0] not in (tag, "all"):
                problems.append(f"{tag} {element.get('id')}: data key {data.get('key')!r} not declared for {tag}s")
                continue
            problems.extend(_typed(declared[1], data.text or "", f"{tag} {element.get('id')}"))
    for element in graphs[0].findall(GRAPHML_NS + "edge"):
        for end in ("source", "target"):
            if element.get(end) not in nodes:
                problems.append(f"edge {element.get('id')}: {end} {element.get(end)!r} is not a node")
    return problems


def _typed(kind: str, text: str, where: str) -> list[str]:
    try:
        if kind in ("int", "long"):
            int(text)
        elif kind in ("float", "double"):
            float(text)
        elif kind == "boolean" and text.strip().lower() not in ("true", "false", "1", "0"):
            raise ValueError(text)
    except ValueError:
        return [f"{where}: {text[:40]!r} is not a {kind}"]
    return []


def gexf_problems(path: Path) -> list[str]:
    """What Gephi's GEXF importer would reject or drop in ``path``."""
    problems: list[str] = []
    root = ET.parse(path).getroot()
    ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    if root.tag != ns + "gexf" or "gexf.net/1.2" not in ns:
        return [f"root {root.tag}: not GEXF 1.2"]
    graph = root.find(ns + "graph")
    if graph is None:
        return ["no graph element"]
    declared = {cls: {a.get("id"): a.get("type") for a in block.findall(ns + "attribute")}
                for block in graph.findall(ns + "attributes") for cls in [block.get("class")]}
    nodes: set[str] = set()
    for node in graph.iter(ns + "node"):
        node_id = node.get("id")
        if not node_id or node_id in nodes:
            problems.append(f"node id {node_id!r} missing or repeated")
        nodes.add(node_id)
        if node.get("label") is None:
            problems.append(f"node {node_id}: no label")
        problems.extend(_attvalues(node, declared.get("node", {}), ns, f"node {node_id}"))
    edges: set[str] = set()
    for edge in graph.iter(ns + "edge"):
        edge_id = edge.get("id")
        if edge_id is None or edge_id in edges:
            problems.append(f"edge id {edge_id!r} missing or repeated: Gephi drops the edge")
        edges.add(edge_id)
        for end in ("source", "target"):
            if edge.get(end) not in nodes:
                problems.append(f"edge {edge_id}: {end} {edge.get(end)!r} is not a node")
        if edge.get("weight") is not None:
            problems.extend(_typed("double", edge.get("weight"), f"edge {edge_id} weight"))
        problems.extend(_attvalues(edge, declared.get("edge", {}), ns, f"edge {edge_id}"))
    return problems


def _attvalues(element, declared: dict, ns: str, where: str) -> list[str]:
    problems = []
    for value in element.iter(ns + "attvalue"):
        kind = declared.get(value.get("for"))
        if kind is None:
            problems.append(f"{where}: attvalue for undeclared attribute {value.get('for')!r}")
        else:
            gexf = {"integer": "long", "long": "long", "float": "double", "double": "double",
                    "boolean": "boolean"}.get(kind, "string")
            problems.extend(_typed(gexf, value.get("value", ""), where))
    return problems


_VOS_COLUMN = re.compile(r"^(id|label|description|url|x|y|cluster|weight<[^<>]+>|score<[^<>]+>)$")


def split_vosviewer_line(line: str) -> list[str]:
    """Fields of one tab-separated line, a field in double quotes read as the text inside
    (a doubled quote inside it being one quote)."""
    fields = []
    for raw in line.rstrip("\n").split("\t"):
        if len(raw) >= 2 and raw[0] == raw[-1] == '"':
            raw = raw[1:-1].replace('""', '"')
        fields.append(raw)
    return fields


def vosviewer_problems(map_path: Path, network_path: Path) -> list[str]:
    """What VOSviewer's documentation forbids in a map and network file pair."""
    problems: list[str] = []
    lines = map_path.read_text("utf-8").splitlines()
    if not lines:
        return [f"{map_path.name}: empty (no header line)"]
    header = lines[0].split("\t")
    problems.extend(f"{map_path.name}: unknown column {c!r}" for c in header if not _VOS_COLUMN.match(c))
    if "id" not in header and "label" not in header:
        problems.append(f"{map_path.name}: neither an id nor a label column")
    if len(lines) < 2:
        problems.append(f"{map_path.name}: no items")
    ids: set[int] = set()
    for number, line in enumerate(lines[1:], start=2):
        raw = line.split("\t")
        if len(raw) != len(header):
            problems.append(f"{map_path.name}:{number}: {len(raw)} fields, header has {len(header)}")
            continue
        for column, text in zip(header, raw):
            where = f"{map_path.name}:{number} {column}"
            if column in ("label", "description") and re.search("[,;]", text):
                if not (len(text) >= 2 and text[0] == text[-1] == '"'):
                    problems.append(f"{where}: {text!r} holds , or ; and is not in double quotes")
            if column == "id":
                if not text.isdigit() or int(text) < 1 or int(text) in ids:
                    problems.append(f"{where}: {text!r} is not a new positive integer")
                else:
                    ids.add(int(text))
            elif column == "cluster" and not (text.isdigit() and 1 <= int(text) <= 1000):
                problems.append(f"{where}: {text!r} is not an integer from 1 to 1000")
            elif column in ("x", "y") or column.startswith("score<"):
                problems.extend(_typed("double", text, where))
            elif column.startswith("weight<"):
                wrong = _typed("double", text, where)
                problems.extend(wrong or ([f"{where}: negative weight {text}"] if float(text) < 0 else []))
    for number, line in enumerate(network_path.read_text("utf-8").splitlines(), start=1):
        fields = line.split("\t")
        where = f"{network_path.name}:{number}"
        if len(fields) not in (2, 3):
            problems.append(f"{where}: {len(fields)} fields, not 2 or 3")
            continue
        for item in fields[:2]:
            if not item.isdigit() or int(item) not in ids:
                problems.append(f"{where}: {item!r} is not an id of the map file")
        if len(fields) == 3:
            problems.extend(_typed("double", fields[2], where))
    return problems
