"""kg.schema is the one owner of the graph's shape: what kg.assemble builds, what
docs/graph-schema.md and the ontology describe, what every exporter writes, what the viewer
and the hand-built test and benchmark graphs use must all follow it.

A label, an edge type or a key added to kg.schema fails here until the docs, the ontology
(kg.ttl, shapes.ttl, README.md) and the exporters have it (or an exporter says why it leaves
a key out: kg.export.rdf.UNEXPORTED).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import networkx as nx
import pytest
from graph_helpers import full_graph
from rdflib import Graph, URIRef
from rdflib.collection import Collection
from rdflib.namespace import OWL, RDF, RDFS, SH

from kg import schema
from kg.export import rdf
from kg.namespace import KGO_IRI

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def graph() -> nx.MultiDiGraph:
    return full_graph()


# ---------------------------------------------------------------- kg.schema and kg.assemble


def test_schema_patterns_name_known_labels():
    assert {label for source, _, target in schema.PATTERNS for label in (source, target)} <= set(schema.NODE_LABELS)
    assert set(schema.NODE_PROPERTIES) == set(schema.NODE_LABELS)
    assert set(schema.RESULT_EDGES) <= set(schema.EDGES) and set(schema.MENTION_EDGES) <= set(schema.EDGES)


def test_assembled_graph_has_every_label_edge_type_and_key_of_the_schema_and_nothing_else(graph):
    """kg.assemble writes exactly the schema: no key it forgets to declare (the ``count`` of
    PROPOSES edges was once written and declared nowhere), none it forgets to write."""
    assert schema.check_graph(graph, complete=True) == []
    assert {d["label"] for _, d in graph.nodes(data=True)} == set(schema.NODE_LABELS)
    assert {k for _, _, k in graph.edges(keys=True)} == set(schema.EDGE_TYPES)


def test_check_graph_names_what_breaks_the_schema():
    g = nx.MultiDiGraph()
    g.add_node("paper:1", **schema.node_attributes("Paper", "P"))
    g.add_node("venue:v", **schema.node_attributes("Venue", "V"))
    g.add_node("x", label="Thing", name="x")
    g.add_edge("paper:1", "venue:v", key="PROPOSES", type="PROPOSES", mentions=[], count=0)
    g.add_edge("paper:1", "venue:v", key="PUBLISHED_IN", type="PUBLISHED_IN")
    g.add_edge("paper:1", "venue:v", key="CITES", type="CITES")
    assert schema.check_graph(g) == [
        "node 'x': unknown label 'Thing'",
        "edge 'paper:1' -PROPOSES-> 'venue:v': PROPOSES does not join Paper to Venue",
        "edge 'paper:1' -CITES-> 'venue:v': unknown edge type",
    ]
    assert "edge 'paper:1' -PUBLISHED_IN-> 'venue:v': no key 'year'" in schema.check_graph(g, complete=True)
    with pytest.raises(ValueError, match="a Venue node has no key 'city'"):
        schema.node_attributes("Venue", "V", city="Vienna")


def _benchmark_graph(name: str, size: int) -> nx.MultiDiGraph:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.synthetic_graph(size)


def _test_graphs() -> dict[str, nx.MultiDiGraph]:
    import conftest as shared
    from query.conftest import research_graph
    from viz.test_browser import _graph as browser_graph

    from export.conftest import make_graph, nasty_graph

    papers = [{"id": "paper:1", "abstract": "We propose A on X.", "venue": "ICLR", "year": 2025,
               "entities": [("A", "Method", True), ("X", "Dataset")]}]
    return {
        "tests/conftest.py make_graph": shared.make_graph(papers),
        "tests/export make_graph": make_graph(40),
        "tests/export nasty_graph": nasty_graph(),
        "tests/query research_graph": research_graph(),
        "tests/viz browser graph": browser_graph(),
        "benchmarks/neo4j_bench.py": _benchmark_graph("neo4j_bench", 300),
        "benchmarks/rdf_bench.py": _benchmark_graph("rdf_bench", 30),
    }


def test_hand_built_test_and_benchmark_graphs_follow_the_schema():
    problems = {name: schema.check_graph(g, complete=True)[:3] for name, g in _test_graphs().items()}
    assert {name: found for name, found in problems.items() if found} == {}


# ---------------------------------------------------------------- docs/graph-schema.md


def _table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header row starts with ``header``, as cells."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _keys(cell: str) -> set[str]:
    """The keys a cell names: backticked identifiers outside parentheses (which say their types)."""
    return set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", cell)))


def _labels(cell: str) -> set[str]:
    """``Paper``, ``entity`` (any entity label) or ``Method/Model``, parentheses left out."""
    names = set(re.sub(r"\([^)]*\)", "", cell).strip().split("/"))
    return (names - {"entity"}) | (set(schema.ENTITY_LABELS) if "entity" in names else set())


@pytest.fixture(scope="module")
def docs() -> str:
    return (ROOT / "docs" / "graph-schema.md").read_text("utf-8")


def test_docs_list_every_label_with_exactly_its_keys(docs):
    documented = {}
    for label_cell, keys_cell in _table_rows(docs, "| label | attributes"):
        for label in label_cell.split("/"):
            documented[label] = _keys(keys_cell) - set(schema.NODE_KEYS)
    assert documented == {label: set(keys) for label, keys in schema.NODE_PROPERTIES.items()}
    common = next(line for line in docs.splitlines() if line.startswith("All nodes:"))
    assert set(re.findall(r"`(\w+)`", common)) == {*schema.NODE_KEYS, *schema.NODE_LABELS}


def test_docs_list_every_edge_type_with_its_labels_and_exactly_its_keys(docs):
    documented = {}
    for types_cell, ends_cell, keys_cell in _table_rows(docs, "| type | from -> to"):
        source, target = ends_cell.split("->", 1)
        for kind in re.findall(r"`(\w+)`", types_cell):
            documented[kind] = (_labels(source), _labels(target), _keys(keys_cell))
    expected = {kind: (set(edge.sources), set(edge.targets), set(edge.properties))
                for kind, edge in schema.EDGES.items()}
    assert documented == expected


# ---------------------------------------------------------------- the ontology


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ROOT / "ontology" / "kg.ttl", format="turtle")


@pytest.fixture(scope="module")
def shapes() -> Graph:
    return Graph().parse(ROOT / "ontology" / "shapes.ttl", format="turtle")


def _kinds(ontology: Graph, cls: URIRef) -> set[str]:
    """The labels whose class is ``cls`` or one of its subclasses (ResearchEntity: the five)."""
    return {label for label, iri in rdf.CLASSES.items()
            if cls in ontology.transitive_objects(URIRef(iri), RDFS.subClassOf)}


def test_ontology_declares_a_class_for_every_label(ontology):
    for label, iri in rdf.CLASSES.items():
        assert (URIRef(iri), RDF.type, OWL.Class) in ontology, label


@pytest.mark.parametrize("kind", schema.EDGE_TYPES)
def test_ontology_declares_every_edge_type_with_a_domain_and_range_holding_its_labels(ontology, kind):
    prop, edge = URIRef(rdf.EDGE_PROPERTIES[kind]), schema.EDGES[kind]
    assert (prop, RDF.type, OWL.ObjectProperty) in ontology, f"{kind}: no owl:ObjectProperty {prop}"
    assert set(edge.sources) <= _kinds(ontology, ontology.value(prop, RDFS.domain)), kind
    assert set(edge.targets) <= _kinds(ontology, ontology.value(prop, RDFS.range)), kind


def _shape_classes(shapes: Graph, ontology: Graph, node) -> set[str]:
    """The labels a property shape allows: its ``sh:class``, or each ``sh:class`` of its ``sh:or``."""
    classes = list(shapes.objects(node, SH["class"]))
    for either in shapes.objects(node, SH["or"]):
        classes += [cls for member in Collection(shapes, either) for cls in shapes.objects(member, SH["class"])]
    return set().union(*(_kinds(ontology, cls) for cls in classes))


def test_shapes_target_every_label(shapes):
    targeted = {str(cls) for cls in shapes.objects(None, SH.targetClass)}
    assert set(rdf.CLASSES.values()) <= targeted


@pytest.mark.parametrize("kind", schema.EDGE_TYPES)
def test_shapes_constrain_every_edge_type_to_its_labels(shapes, ontology, kind):
    """A relation's predicate is one the Statement shape allows; any other edge type is a
    property of its source label's shape, whose class(es) are its target labels."""
    prop, edge = URIRef(rdf.EDGE_PROPERTIES[kind]), schema.EDGES[kind]
    if kind in schema.RELATION_TYPES:
        statement = shapes.value(predicate=SH.targetClass, object=RDF.Statement)
        allowed = [set(Collection(shapes, shapes.value(p, SH["in"])))
                   for p in shapes.objects(statement, SH.property) if shapes.value(p, SH.path) == RDF.predicate]
        assert allowed and prop in allowed[0], kind
        return
    for source in edge.sources:
        shape = shapes.value(predicate=SH.targetClass, object=URIRef(rdf.CLASSES[source]))
        found = [p for p in shapes.objects(shape, SH.property) if shapes.value(p, SH.path) == prop]
        assert found, f"{kind}: no sh:path {prop} in the shape of {source}"
        assert _shape_classes(shapes, ontology, found[0]) == set(edge.targets), kind


def test_ontology_readme_maps_every_edge_type_and_label():
    readme = (ROOT / "ontology" / "README.md").read_text("utf-8")
    for kind, iri in rdf.EDGE_PROPERTIES.items():
        term = "kgo:" + iri.removeprefix(KGO_IRI)
        assert re.search(rf"^\| `{term}` \| `{kind}` \|", readme, re.M), f"{kind}: no row `{term}` | `{kind}`"
    for label in schema.NODE_LABELS:
        assert re.search(rf"^\| `kgo:{label}` \| `{label}` \|", readme, re.M), label


# ---------------------------------------------------------------- the exporters


def _node_link(g: nx.MultiDiGraph, tmp_path: Path) -> str:
    from kg.export.files import write_node_link

    write_node_link(g, tmp_path / "graph.json")
    return (tmp_path / "graph.json").read_text("utf-8")


def _graphml(g: nx.MultiDiGraph, tmp_path: Path) -> str:
    from kg.export.files import iter_graphml

    return "".join(iter_graphml(g))


def _rdf(g: nx.MultiDiGraph, tmp_path: Path) -> str:
    return "".join(rdf.iter_ntriples(g))


def _neo4j(g: nx.MultiDiGraph, tmp_path: Path) -> str:
    from kg.export.neo4j import to_rows

    return repr(to_rows(g))


EXPORTERS = {"node-link JSON": _node_link, "GraphML": _graphml, "RDF": _rdf, "Neo4j": _neo4j}
LEFT_OUT = {"RDF": rdf.UNEXPORTED}


def _changed(value):
    """Another value of the same kind: a flag flipped, a number grown, a list one longer."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "-changed"
    if value and isinstance(value[0], dict):
        return [*value, {**value[0], "start": 99}]
    return [*value, "changed"]


def _elements(g: nx.MultiDiGraph):
    """``(label or edge type, attributes)`` of every node and edge."""
    for _, data in g.nodes(data=True):
        yield data["label"], data
    for _, _, key, data in g.edges(keys=True, data=True):
        yield key, data


@pytest.mark.parametrize("exporter", EXPORTERS)
def test_exporters_write_every_key_or_say_why_not(graph, exporter, tmp_path):
    """Each key of the schema (but the label and the type, which every row or triple holds)
    changes the export when its value changes on a node or edge, unless the exporter lists
    it as left out; and nothing it lists as left out is written after all."""
    export = EXPORTERS[exporter]
    left_out = LEFT_OUT.get(exporter, {})
    before = export(graph, tmp_path)
    written = set()
    for kind, data in _elements(graph):
        for key in list(data):
            if key in ("label", "type"):
                continue
            value = data[key]
            data[key] = _changed(value)
            if export(graph, tmp_path) != before:
                written.add((kind, key))
            data[key] = value
    keys = {(label, key) for label in schema.NODE_LABELS for key in schema.node_keys(label)[1:]}
    keys |= {(kind, key) for kind in schema.EDGE_TYPES for key in schema.edge_keys(kind)[1:]}
    declared = {(kind, key) for kind, reasons in left_out.items() for key in reasons}
    assert declared <= keys, "left out, but not in the schema"
    assert sorted(keys - written - declared) == [], "forgotten"
    assert sorted(written & declared) == [], "written, but listed as left out"


def test_exporters_know_every_label_and_edge_type(graph, tmp_path):
    from kg.export.neo4j import to_rows

    rows = to_rows(graph)
    assert list(rows.nodes) == list(schema.NODE_LABELS)
    assert {kind for kind, _, _ in rows.relationships} == set(schema.EDGE_TYPES)
    triples = rdf.to_rdf(graph)
    assert {str(o) for o in triples.objects(None, RDF.type)} >= set(rdf.CLASSES.values())
    assert {str(p) for p in triples.predicates()} >= set(rdf.EDGE_PROPERTIES.values())
    graphml = nx.read_graphml(_write(tmp_path / "g.graphml", _graphml(graph, tmp_path)), force_multigraph=True)
    assert {d["type"] for _, d in graphml.nodes(data=True)} == set(schema.NODE_LABELS)
    assert {d["type"] for _, _, d in graphml.edges(data=True)} == set(schema.EDGE_TYPES)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- the viewer


def test_viewer_gets_the_schema_as_data_and_names_none_of_it_itself():
    from kg.viz.html import TYPE_COLOURS, viewer_schema

    given = viewer_schema()
    assert given["entity_types"] == list(schema.ENTITY_LABELS)
    assert list(given["relations"]) == list(schema.RELATION_TYPES)
    assert list(given["results"]) == list(schema.RESULT_EDGES)
    assert {given["paper"], given["result"]} <= set(schema.NODE_LABELS)
    assert {given[k] for k in ("proposes", "mentions", "reports", "has_code")} <= set(schema.EDGE_TYPES)
    assert set(TYPE_COLOURS) == set(schema.NODE_LABELS)
    script = (ROOT / "kg" / "viz" / "assets" / "viewer.js").read_text("utf-8")
    named = [name for name in schema.EDGE_TYPES if re.search(rf"\b{name}\b", script)]
    named += [label for label in schema.NODE_LABELS if re.search(rf"[\"'.]{label}\b", script)]
    assert named == []
