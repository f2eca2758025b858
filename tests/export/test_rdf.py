"""Tests of kg.export.rdf on a small hand-built graph following docs/graph-schema.md."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pyoxigraph as ox
import pytest
from pyshacl import validate
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import OWL, RDF, RDFS, SKOS, XSD

from kg.export.rdf import (
    PREFIXES,
    iter_jsonld,
    iter_ntriples,
    iter_turtle,
    node_iri,
    statement_iri,
    to_rdf,
    write_jsonld,
    write_ntriples,
    write_turtle,
)
from kg.namespace import KG_BASE, KGO, KGO_IRI

ROOT = Path(__file__).resolve().parents[2]
ONTOLOGY = ROOT / "ontology" / "kg.ttl"
SHAPES = ROOT / "ontology" / "shapes.ttl"
PROV = Namespace("http://www.w3.org/ns/prov#")
DCTERMS = Namespace("http://purl.org/dc/terms/")
DC = Namespace("http://purl.org/dc/elements/1.1/")
SCHEMA = Namespace("http://schema.org/")

PAPER_A = "doi:10.1000/abc(1)"
PAPER_B = "paper:3f2a9c0d11e2b4a7"
ABSTRACT_A = (
    'We propose ResNet "v2" \\ a residual net.\n'
    "ResNet is evaluated on CIFAR-10\tand beats VGG-16 (93.4% accuracy) \u2028 Zoë ✓ 🚀."
)
ABSTRACT_B = "Line one.\r\nOur ResNet baseline is evaluated on CIFAR-10; path C:\\data\\x.\x01\x7f"
RESNET = 'ResNet "v2" \\'


def _span(text: str, needle: str) -> dict[str, int]:
    start = text.index(needle)
    return {"start": start, "end": start + len(needle)}


def build_graph(reverse: bool = False) -> nx.MultiDiGraph:
    """The fixture graph; ``reverse`` adds the same nodes and edges in the opposite order."""
    nodes = [
        (
            PAPER_A,
            {
                "label": "Paper",
                "name": 'Deep "Residual" Learning\\ for Zoë 🚀',
                "title": 'Deep "Residual" Learning\\ for Zoë 🚀',
                "abstract": ABSTRACT_A,
                "year": 2021,
                "venue": "ICLR",
                "doi": "10.1000/abc(1)",
                "arxiv_id": "2101.00001",
                "url": "https://example.org/papers/abc (1)?q=1#top",
                "authors": ["Zoë Ñúñez", "J. O'Brien", 'A "Quoted" Name'],
                "source_path": "/tmp/in.jsonl",
                "source_index": 0,
            },
        ),
        (
            PAPER_B,
            {
                "label": "Paper",
                "name": "Line one.",
                "title": None,
                "abstract": ABSTRACT_B,
                "year": None,
                "venue": None,
                "doi": None,
                "arxiv_id": None,
                "url": None,
                "authors": [],
                "source_path": "/tmp/in.jsonl",
                "source_index": 1,
            },
        ),
        ("venue:iclr", {"label": "Venue", "name": "ICLR"}),
        (
            "entity:resnet-v-2",
            {
                "label": "Method",
                "name": RESNET,
                "aliases": ["ResNet", "ResNets\n(plural)"],
                "catalogue_id": None,
                "paper_count": 2,
                "mention_count": 3,
                "proposed_by": [PAPER_A],
            },
        ),
        (
            "entity:cifar-10",
            {
                "label": "Dataset",
                "name": "CIFAR-10",
                "aliases": ["CIFAR10"],
                "catalogue_id": "pwc:dataset:cifar-10",
                "paper_count": 2,
                "mention_count": 2,
                "proposed_by": [],
            },
        ),
        (
            "entity:vgg-16",
            {
                "label": "Model",
                "name": "VGG-16",
                "aliases": [],
                "catalogue_id": None,
                "paper_count": 1,
                "mention_count": 1,
                "proposed_by": [],
            },
        ),
        (
            "code:github.com/foundationagents/ResNet-v2",
            {
                "label": "CodeRepository",
                "name": "foundationagents/ResNet-v2",
                "url": "https://github.com/foundationagents/ResNet-v2",
            },
        ),
        (
            f"result:{PAPER_A}:0",
            {
                "label": "Result",
                "name": 'ResNet "v2" accuracy 93.4% on CIFAR-10',
                "value": "93.4%",
                "metric": "accuracy",
                "number": 93.4,
                "unit": "%",
                "delta": None,
                "direction": "higher",
                "setting": "zero-shot",
                "paper": PAPER_A,
                **_span(ABSTRACT_A, "93.4%"),
                "sentence_start": ABSTRACT_A.index("ResNet is"),
                "sentence_end": ABSTRACT_A.index(" \u2028"),
            },
        ),
        (
            "entity:accuracy",
            {
                "label": "Metric",
                "name": "accuracy",
                "aliases": [],
                "catalogue_id": None,
                "paper_count": 1,
                "mention_count": 1,
                "proposed_by": [],
            },
        ),
    ]
    ev_a = {"paper": PAPER_A, **_span(ABSTRACT_A, "ResNet is evaluated on CIFAR-10")}
    ev_b = {"paper": PAPER_B, **_span(ABSTRACT_B, "ResNet baseline is evaluated on CIFAR-10")}
    result = f"result:{PAPER_A}:0"
    edges = [
        (PAPER_A, "venue:iclr", "PUBLISHED_IN", {"year": 2021}),
        (PAPER_A, "entity:resnet-v-2", "PROPOSES", {"mentions": [_span(ABSTRACT_A, "ResNet")]}),
        (
            PAPER_A,
            "entity:cifar-10",
            "MENTIONS",
            {"mentions": [_span(ABSTRACT_A, "CIFAR-10")], "count": 1},
        ),
        (
            PAPER_A,
            "entity:vgg-16",
            "MENTIONS",
            {"mentions": [_span(ABSTRACT_A, "VGG-16")], "count": 1},
        ),
        (
            PAPER_B,
            "entity:resnet-v-2",
            "MENTIONS",
            {"mentions": [_span(ABSTRACT_B, "ResNet")], "count": 1},
        ),
        (
            PAPER_B,
            "entity:cifar-10",
            "MENTIONS",
            {"mentions": [_span(ABSTRACT_B, "CIFAR-10")], "count": 1},
        ),
        (
            "entity:resnet-v-2",
            "entity:cifar-10",
            "EVALUATED_ON",
            {"support": 2, "evidence": [ev_a, ev_b]},
        ),
        (
            "entity:resnet-v-2",
            "entity:vgg-16",
            "COMPARED_WITH",
            {"support": 1, "evidence": [{"paper": PAPER_A, **_span(ABSTRACT_A, "beats VGG-16")}]},
        ),
        (PAPER_A, "code:github.com/foundationagents/ResNet-v2", "HAS_CODE", {}),
        (PAPER_A, result, "REPORTS", {}),
        (result, "entity:resnet-v-2", "RESULT_OF", {}),
        (result, "entity:cifar-10", "RESULT_ON", {}),
        (result, "entity:accuracy", "RESULT_MEASURED_BY", {}),
        (result, "entity:vgg-16", "RESULT_AGAINST", {}),
        (
            PAPER_A,
            "entity:accuracy",
            "MENTIONS",
            {"mentions": [_span(ABSTRACT_A, "accuracy")], "count": 1},
        ),
    ]
    if reverse:
        nodes.reverse()
        edges.reverse()
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(nodes)
    for u, v, key, data in edges:
        graph.add_edge(u, v, key=key, type=key, **data)
    return graph


@pytest.fixture
def graph() -> nx.MultiDiGraph:
    return build_graph()


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(ONTOLOGY, format="turtle")


@pytest.fixture(scope="module")
def shapes() -> Graph:
    return Graph().parse(SHAPES, format="turtle")


def _ox_triples(data: bytes | str, fmt: ox.RdfFormat) -> set[str]:
    """Triples as parsed by oxigraph (a strict parser that also validates IRIs)."""
    return {str(quad.triple) for quad in ox.parse(data, fmt)}


def _conforms(data: Graph, shapes: Graph, ontology: Graph) -> tuple[bool, Graph, str]:
    return validate(data, shacl_graph=shapes, ont_graph=ontology, inference="none", advanced=True)


# ------------------------------------------------------------------ IRIs


@pytest.mark.parametrize(
    ("node_id", "path"),
    [
        ("entity:cifar-10", "entity/cifar-10"),
        ("paper:3f2a9c0d11e2b4a7", "paper/3f2a9c0d11e2b4a7"),
        ("doi:10.1/x", "paper/doi/10.1%2Fx"),
        ("doi:10.1000/a b#c?d%e", "paper/doi/10.1000%2Fa%20b%23c%3Fd%25e"),
        ("arxiv:2401.01234", "paper/arxiv/2401.01234"),
        ("arxiv:hep-th/9901001", "paper/arxiv/hep-th%2F9901001"),
        ("venue:iclr", "venue/iclr"),
        ("code:github.com/a/b", "code/github.com/a/b"),
        ("code:github.com/a/..", "code/github.com/a/%2E%2E"),
        ("result:paper:3f2a9c0d11e2b4a7:0", "result/3f2a9c0d11e2b4a7/0"),
        ("result:doi:10.1/x:12", "result/doi/10.1%2Fx/12"),
        ("entity:zoë-ñ", "entity/zoë-ñ"),
        ("entity:a\ufffeb", "entity/a%EF%BF%BEb"),
        ("no-prefix", "node/no-prefix"),
        ("thing:x/y", "node/thing:x%2Fy"),
    ],
)
def test_node_iri_maps_ids_under_the_base(node_id: str, path: str) -> None:
    assert node_iri(node_id) == KG_BASE + path
    assert node_iri(node_id, "http://example.org/kg#") == "http://example.org/kg#" + path


def test_node_iri_gives_valid_iris() -> None:
    ids = ['doi:10.1000/<x>{y}|z^`\\"', "code:host/a b/\u0007", "entity:\ud800"]
    lines = "".join(f'<{node_iri(i)}> <http://example.org/p> "x" .\n' for i in ids)
    assert len(_ox_triples(lines, ox.RdfFormat.N_TRIPLES)) == len(ids)


@pytest.mark.parametrize(
    ("url", "iri"),
    [
        ("https://github.com/a/b", "https://github.com/a/b"),
        ("github.com/a/b.git", "https://github.com/a/b.git"),
        (
            'https://x.org/a b[1]|<c>?q="1"#f#g',
            "https://x.org/a%20b%5B1%5D%7C%3Cc%3E?q=%221%22#f%23g",
        ),
        ("http://[::1]:8080/p%zz%41", "http://[::1]:8080/p%25zz%41"),
        ("https://例え.jp/パス", "https://例え.jp/パス"),
    ],
)
def test_urls_become_valid_iris(url: str, iri: str) -> None:
    graph = nx.MultiDiGraph()
    graph.add_node("code:x", label="CodeRepository", name="x", url=url)
    data = "".join(iter_ntriples(graph))
    assert f"<{iri}>" in data
    assert len(_ox_triples(data, ox.RdfFormat.N_TRIPLES)) == 3


@pytest.mark.parametrize(
    "base", ["https://example.org/kg", "example.org/", "https://ex ample.org/", ""]
)
def test_to_rdf_rejects_a_bad_base(graph: nx.MultiDiGraph, base: str) -> None:
    with pytest.raises(ValueError, match="base"):
        to_rdf(graph, base)


def test_iris_are_stable_across_calls_and_insertion_order() -> None:
    first = "".join(iter_ntriples(build_graph()))
    assert first == "".join(iter_ntriples(build_graph()))
    assert first == "".join(iter_ntriples(build_graph(reverse=True)))
    turtle = to_rdf(build_graph()).serialize(format="turtle")
    assert turtle == to_rdf(build_graph(reverse=True)).serialize(format="turtle")
    for writer in (iter_turtle, iter_jsonld):
        assert "".join(writer(build_graph())) == "".join(writer(build_graph(reverse=True)))


def test_statement_iri_is_derived_from_subject_predicate_object() -> None:
    assert statement_iri("entity:resnet", "EVALUATED_ON", "entity:cifar-10") == (
        KG_BASE + "statement/entity/resnet/evaluatedOn/entity/cifar-10"
    )


def test_output_is_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "from test_rdf import build_graph;"
        "from kg.export.rdf import write_turtle, write_jsonld, write_ntriples;"
        "g = build_graph(); out = sys.argv[3];"
        "write_turtle(g, out + '.ttl'); write_jsonld(g, out + '.jsonld');"
        "write_ntriples(g, out + '.nt')"
    )
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / f"seed{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-c", script, str(ROOT), str(Path(__file__).parent), str(out)],
            check=True,
            env=env,
        )
        outputs.append(
            [(out.parent / (out.name + ext)).read_bytes() for ext in (".ttl", ".jsonld", ".nt")]
        )
    assert outputs[0] == outputs[1]


# -------------------------------------------------------------- content


def test_export_content(graph: nx.MultiDiGraph) -> None:
    rdf = to_rdf(graph)
    paper = URIRef(node_iri(PAPER_A))
    resnet = URIRef(node_iri("entity:resnet-v-2"))
    cifar = URIRef(node_iri("entity:cifar-10"))
    assert (paper, RDF.type, KGO.Paper) in rdf
    assert (paper, DCTERMS.identifier, Literal(PAPER_A)) in rdf
    assert (paper, DCTERMS.abstract, Literal(ABSTRACT_A)) in rdf
    assert (paper, DCTERMS.date, Literal("2021", datatype=XSD.gYear)) in rdf
    assert set(rdf.objects(paper, DC.creator)) == {
        Literal("Zoë Ñúñez"),
        Literal("J. O'Brien"),
        Literal('A "Quoted" Name'),
    }
    assert set(rdf.objects(paper, OWL.sameAs)) == {
        URIRef("https://doi.org/10.1000/abc(1)"),
        URIRef("https://arxiv.org/abs/2101.00001"),
    }
    assert rdf.value(paper, SCHEMA.url) == URIRef("https://example.org/papers/abc%20(1)?q=1#top")
    assert rdf.value(resnet, RDFS.label) == Literal(RESNET)
    assert set(rdf.objects(resnet, SKOS.altLabel)) == {
        Literal("ResNet"),
        Literal("ResNets\n(plural)"),
    }
    assert rdf.value(resnet, KGO.paperCount) == Literal(2)
    assert rdf.value(cifar, KGO.catalogueId) == Literal("pwc:dataset:cifar-10")
    assert rdf.value(cifar, DCTERMS.identifier) == Literal("pwc:dataset:cifar-10")
    assert (resnet, KGO.evaluatedOn, cifar) in rdf
    code = URIRef(node_iri("code:github.com/foundationagents/ResNet-v2"))
    assert rdf.value(code, SCHEMA.codeRepository) == URIRef(
        "https://github.com/foundationagents/ResNet-v2"
    )
    assert not list(rdf.triples((None, None, Literal("/tmp/in.jsonl"))))

    statement = URIRef(statement_iri("entity:resnet-v-2", "EVALUATED_ON", "entity:cifar-10"))
    assert rdf.value(statement, RDF.predicate) == KGO.evaluatedOn
    assert rdf.value(statement, KGO.support) == Literal(2)
    assert set(rdf.objects(statement, PROV.wasDerivedFrom)) == {
        URIRef(node_iri(PAPER_A)),
        URIRef(node_iri(PAPER_B)),
    }
    spans = {
        (
            rdf.value(ev, PROV.entity),
            rdf.value(ev, KGO.evidenceStart).toPython(),
            rdf.value(ev, KGO.evidenceEnd).toPython(),
        )
        for ev in rdf.objects(statement, PROV.qualifiedDerivation)
    }
    assert spans == {
        (
            URIRef(node_iri(PAPER_A)),
            ABSTRACT_A.index("ResNet is"),
            ABSTRACT_A.index("ResNet is") + 31,
        ),
        (
            URIRef(node_iri(PAPER_B)),
            ABSTRACT_B.index("ResNet b"),
            ABSTRACT_B.index("ResNet b") + 40,
        ),
    }

    result = URIRef(node_iri(f"result:{PAPER_A}:0"))
    assert rdf.value(result, KGO.value) == Literal("93.4%")
    assert rdf.value(result, KGO.metricName) == Literal("accuracy")
    assert rdf.value(result, KGO.numericValue) == Literal("93.4", datatype=XSD.decimal)
    assert rdf.value(result, KGO.unit) == Literal("%")
    assert rdf.value(result, KGO.direction) == Literal("higher")
    assert rdf.value(result, KGO.setting) == Literal("zero-shot")
    assert rdf.value(result, KGO.delta) is None  # not stated: no triple
    assert rdf.value(result, KGO.resultMeasuredBy) == URIRef(node_iri("entity:accuracy"))
    assert rdf.value(result, KGO.resultOn) == URIRef(node_iri("entity:cifar-10"))
    assert rdf.value(result, PROV.wasDerivedFrom) == paper
    assert (paper, KGO.reports, result) in rdf
    evidence = rdf.value(result, PROV.qualifiedDerivation)
    assert rdf.value(evidence, KGO.sentenceStart).toPython() == ABSTRACT_A.index("ResNet is")


def test_every_kgo_term_used_is_declared_in_the_ontology(
    graph: nx.MultiDiGraph, ontology: Graph
) -> None:
    used = {term for triple in to_rdf(graph) for term in triple if str(term).startswith(KGO_IRI)}
    declared = {s for s in ontology.subjects() if str(s).startswith(KGO_IRI)}
    assert used
    assert used <= declared, used - declared


def test_unknown_node_label_or_edge_type_is_an_error(
    graph: nx.MultiDiGraph, tmp_path: Path
) -> None:
    graph.add_node("entity:x", label="Gadget", name="x")
    with pytest.raises(ValueError, match="Gadget"):
        to_rdf(graph)
    with pytest.raises(ValueError, match="Gadget"):
        write_turtle(graph, tmp_path / "graph.ttl")
    assert list(tmp_path.iterdir()) == []  # no partial file left behind
    graph = build_graph()
    graph.add_edge("entity:cifar-10", "entity:vgg-16", key="LIKES", type="LIKES")
    with pytest.raises(ValueError, match="LIKES"):
        list(iter_ntriples(graph))


# ----------------------------------------------------------- round trips


def test_rdflib_turtle_round_trips_isomorphic(graph: nx.MultiDiGraph) -> None:
    rdf = to_rdf(graph)
    text = rdf.serialize(format="turtle")
    assert "@prefix kgo: <https://w3id.org/kg/ontology#> ." in text
    assert "entity:cifar-10 a kgo:Dataset" in text
    assert isomorphic(rdf, Graph().parse(data=text, format="turtle"))


def test_write_turtle_parses_isomorphic_to_to_rdf(graph: nx.MultiDiGraph, tmp_path: Path) -> None:
    path = tmp_path / "graph.ttl"
    write_turtle(graph, path)
    text = path.read_text(encoding="utf-8")
    assert text == "".join(iter_turtle(graph))
    assert "@prefix kgo: <https://w3id.org/kg/ontology#> ." in text
    assert '\nentity:cifar-10\n    a kgo:Dataset ;\n    rdfs:label "CIFAR-10" ;' in text
    assert "kgo:evaluatedOn entity:cifar-10" in text
    rdf = to_rdf(graph)
    assert isomorphic(rdf, Graph().parse(path, format="turtle"))
    assert _ox_triples(path.read_bytes(), ox.RdfFormat.TURTLE) == _ox_triples(
        "".join(iter_ntriples(graph)), ox.RdfFormat.N_TRIPLES
    )
    # and once more through rdflib: parse, serialise, parse
    again = Graph().parse(data=Graph().parse(path).serialize(format="turtle"), format="turtle")
    assert isomorphic(rdf, again)


def test_ntriples_parse_and_are_isomorphic_to_to_rdf(graph: nx.MultiDiGraph) -> None:
    lines = list(iter_ntriples(graph))
    rdf = to_rdf(graph)
    assert all(line.endswith(" .\n") and line.count("\n") == 1 for line in lines)
    assert len(lines) == len(set(lines)) == len(rdf)
    parsed = Graph().parse(data="".join(lines), format="nt")
    assert isomorphic(parsed, rdf)
    assert len(_ox_triples("".join(lines), ox.RdfFormat.N_TRIPLES)) == len(lines)


@pytest.mark.parametrize(
    "text",
    [
        'quote " and backslash \\ and \\" and \\n literally',
        "newline\nreturn\rtab\tback\bfeed\f",
        "controls \x00\x01\x1f\x7f\x85\x9f",
        "separators \u2028 \u2029 and ends with backslash \\",
        'ends with quote "',
        '"""triple"""',
        "unicode Zoë ✓ 🚀 \U0010fffd \ufeff",
        "lone surrogate \ud800 here",
        "\\u0041 is not an escape",
        "",
    ],
)
def test_ntriples_escaping_matches_rdflib_and_oxigraph(text: str) -> None:
    graph = nx.MultiDiGraph()
    graph.add_node("venue:x", label="Venue", name=text)
    data = "".join(iter_ntriples(graph))
    expected = text.replace("\ud800", "\ufffd") if text else None
    labels = list(Graph().parse(data=data, format="nt").objects(None, RDFS.label))
    assert labels == ([Literal(expected)] if expected is not None else [])
    assert isomorphic(Graph().parse(data=data, format="nt"), to_rdf(graph))
    ox_labels = [
        q.object.value
        for q in ox.parse(data.encode("utf-8"), ox.RdfFormat.N_TRIPLES)
        if q.predicate.value == str(RDFS.label)
    ]
    assert ox_labels == ([expected] if expected is not None else [])
    expected_triples = _ox_triples(data, ox.RdfFormat.N_TRIPLES)
    for turtle in (to_rdf(graph).serialize(format="turtle"), "".join(iter_turtle(graph))):
        assert isomorphic(Graph().parse(data=turtle, format="turtle"), to_rdf(graph))
        assert _ox_triples(turtle, ox.RdfFormat.TURTLE) == expected_triples
    jsonld = "".join(iter_jsonld(graph))
    assert _ox_triples(jsonld, ox.RdfFormat.JSON_LD) == expected_triples


def test_write_ntriples_to_path_text_and_binary_files(
    graph: nx.MultiDiGraph, tmp_path: Path
) -> None:
    expected = "".join(iter_ntriples(graph))
    path = tmp_path / "graph.nt"
    write_ntriples(graph, path)
    assert path.read_bytes() == expected.encode("utf-8")
    write_ntriples(graph, str(path))
    assert path.read_bytes() == expected.encode("utf-8")
    text = io.StringIO()
    write_ntriples(graph, text)
    assert text.getvalue() == expected
    binary = io.BytesIO()
    write_ntriples(graph, binary)
    assert binary.getvalue() == expected.encode("utf-8")


# rdflib's own JSON-LD parser builds a ConjunctiveGraph internally
@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated:DeprecationWarning")
def test_jsonld_parses(graph: nx.MultiDiGraph, tmp_path: Path) -> None:
    path = tmp_path / "graph.jsonld"
    write_jsonld(graph, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert PREFIXES.items() <= document["@context"].items()
    assert document["@context"]["entity"] == KG_BASE + "entity/"
    assert {"@id": "entity:cifar-10"} in [
        node.get("kgo:evaluatedOn") for node in document["@graph"]
    ]
    parsed = Graph().parse(path, format="json-ld")
    assert isomorphic(parsed, to_rdf(graph))
    assert _ox_triples(path.read_bytes(), ox.RdfFormat.JSON_LD) == _ox_triples(
        "".join(iter_ntriples(graph)), ox.RdfFormat.N_TRIPLES
    )


def test_custom_base(graph: nx.MultiDiGraph) -> None:
    base = "http://example.org/data/"
    text = to_rdf(graph, base).serialize(format="turtle")
    assert "@prefix entity: <http://example.org/data/entity/> ." in text
    assert "@prefix entity: <http://example.org/data/entity/> ." in "".join(
        iter_turtle(graph, base)
    )
    assert KG_BASE not in "".join(iter_ntriples(graph, base))
    assert _ox_triples("".join(iter_jsonld(graph, base)), ox.RdfFormat.JSON_LD) == _ox_triples(
        "".join(iter_ntriples(graph, base)), ox.RdfFormat.N_TRIPLES
    )


@pytest.mark.skipif(
    shutil.which("rapper") is None, reason="rapper (Debian raptor2-utils) is not installed"
)
def test_rapper_parses_turtle_and_ntriples(graph: nx.MultiDiGraph, tmp_path: Path) -> None:
    expected = len(to_rdf(graph))
    for name, fmt, write in (
        ("graph.ttl", "turtle", write_turtle),
        ("graph.nt", "ntriples", write_ntriples),
    ):
        path = tmp_path / name
        write(graph, path)
        run = subprocess.run(
            ["rapper", "-i", fmt, "-o", "ntriples", str(path)],
            capture_output=True,
            text=True,
            encoding="utf-8",
        )
        assert run.returncode == 0, run.stderr
        assert "error" not in run.stderr.lower(), run.stderr
        assert "warning" not in run.stderr.lower(), run.stderr
        assert len(run.stdout.splitlines()) == expected
        assert isomorphic(Graph().parse(data=run.stdout, format="nt"), to_rdf(graph))


# ----------------------------------------------------------------- SHACL


def test_ontology_and_shapes_parse(ontology: Graph, shapes: Graph) -> None:
    assert (URIRef("https://w3id.org/kg/ontology"), RDF.type, OWL.Ontology) in ontology
    assert len(shapes) > 0
    for path in (ONTOLOGY, SHAPES):  # oxigraph is stricter than rdflib (IRIs, escapes)
        assert _ox_triples(path.read_bytes(), ox.RdfFormat.TURTLE)


def test_export_conforms_to_shapes(graph: nx.MultiDiGraph, shapes: Graph, ontology: Graph) -> None:
    conforms, _, report = _conforms(to_rdf(graph), shapes, ontology)
    assert conforms, report


def test_export_conforms_after_rdfs_inference(
    graph: nx.MultiDiGraph, shapes: Graph, ontology: Graph
) -> None:
    """The alignments entail more types and properties; none of them breaks a shape."""
    conforms, _, report = validate(
        to_rdf(graph), shacl_graph=shapes, ont_graph=ontology, inference="rdfs", advanced=True
    )
    assert conforms, report


def _mutate_graph(graph: nx.MultiDiGraph, case: str) -> str:
    """Break ``graph`` in one way; return the node id whose IRI a violation names."""
    if case == "entity without label":
        graph.nodes["entity:cifar-10"]["name"] = None
        return node_iri("entity:cifar-10")
    if case == "paper count 0":
        graph.nodes["entity:vgg-16"]["paper_count"] = 0
        return node_iri("entity:vgg-16")
    if case == "evidence start > end":
        edge = graph.edges["entity:resnet-v-2", "entity:cifar-10", "EVALUATED_ON"]
        edge["evidence"] = [{"paper": PAPER_A, "start": 30, "end": 10}]
        edge["support"] = 1
        return statement_iri("entity:resnet-v-2", "EVALUATED_ON", "entity:cifar-10") + (
            f"/evidence/{node_iri(PAPER_A).removeprefix(KG_BASE)}/30-10"
        )
    if case == "evidence past the abstract":
        edge = graph.edges["entity:resnet-v-2", "entity:vgg-16", "COMPARED_WITH"]
        edge["evidence"] = [{"paper": PAPER_A, "start": 5, "end": len(ABSTRACT_A) + 1}]
        return statement_iri("entity:resnet-v-2", "COMPARED_WITH", "entity:vgg-16") + (
            f"/evidence/{node_iri(PAPER_A).removeprefix(KG_BASE)}/5-{len(ABSTRACT_A) + 1}"
        )
    if case == "support below its papers":
        graph.edges["entity:resnet-v-2", "entity:cifar-10", "EVALUATED_ON"]["support"] = 1
        return statement_iri("entity:resnet-v-2", "EVALUATED_ON", "entity:cifar-10")
    if case == "relation without evidence":
        graph.edges["entity:resnet-v-2", "entity:vgg-16", "COMPARED_WITH"]["evidence"] = []
        return statement_iri("entity:resnet-v-2", "COMPARED_WITH", "entity:vgg-16")
    if case == "result without value":
        graph.nodes[f"result:{PAPER_A}:0"]["value"] = None
        return node_iri(f"result:{PAPER_A}:0")
    if case == "result on a Method":
        graph.add_edge(f"result:{PAPER_A}:0", "entity:resnet-v-2", key="RESULT_ON", type="RESULT_ON")
        graph.remove_edge(f"result:{PAPER_A}:0", "entity:cifar-10", key="RESULT_ON")
        return node_iri(f"result:{PAPER_A}:0")
    if case == "result of a Dataset":
        graph.remove_edge(f"result:{PAPER_A}:0", "entity:resnet-v-2", key="RESULT_OF")
        graph.add_edge(f"result:{PAPER_A}:0", "entity:cifar-10", key="RESULT_OF", type="RESULT_OF")
        return node_iri(f"result:{PAPER_A}:0")
    if case == "result with an unknown direction":
        graph.nodes[f"result:{PAPER_A}:0"]["direction"] = "up"
        return node_iri(f"result:{PAPER_A}:0")
    if case == "result sentence after its value":
        graph.nodes[f"result:{PAPER_A}:0"]["sentence_start"] = ABSTRACT_A.index("93.4%") + 1
        return node_iri(f"result:{PAPER_A}:0") + f"/evidence/{ABSTRACT_A.index('93.4%')}-{ABSTRACT_A.index('93.4%') + 5}"
    if case == "paper without abstract":
        graph.nodes[PAPER_B]["abstract"] = None
        return node_iri(PAPER_B)
    if case == "paper proposes and mentions":
        graph.add_edge(
            PAPER_A, "entity:resnet-v-2", key="MENTIONS", type="MENTIONS", mentions=[], count=0
        )
        return node_iri(PAPER_A)
    raise AssertionError(case)


@pytest.mark.parametrize(
    "case",
    [
        "entity without label",
        "paper count 0",
        "evidence start > end",
        "evidence past the abstract",
        "support below its papers",
        "relation without evidence",
        "result without value",
        "result on a Method",
        "result of a Dataset",
        "result with an unknown direction",
        "result sentence after its value",
        "paper without abstract",
        "paper proposes and mentions",
    ],
)
def test_broken_graph_does_not_conform(
    graph: nx.MultiDiGraph, shapes: Graph, ontology: Graph, case: str
) -> None:
    focus = _mutate_graph(graph, case)
    conforms, results, report = _conforms(to_rdf(graph), shapes, ontology)
    assert not conforms
    SH = Namespace("http://www.w3.org/ns/shacl#")
    assert URIRef(focus) in set(results.objects(None, SH.focusNode)), report


def test_unasserted_reified_triple_does_not_conform(
    graph: nx.MultiDiGraph, shapes: Graph, ontology: Graph
) -> None:
    rdf = to_rdf(graph)
    rdf.remove((URIRef(node_iri("entity:resnet-v-2")), KGO.evaluatedOn, None))
    conforms, _, report = _conforms(rdf, shapes, ontology)
    assert not conforms
    assert "not asserted" in report


def test_entity_with_two_types_does_not_conform(
    graph: nx.MultiDiGraph, shapes: Graph, ontology: Graph
) -> None:
    rdf = to_rdf(graph)
    rdf.add((URIRef(node_iri("entity:cifar-10")), RDF.type, KGO.Task))
    assert not _conforms(rdf, shapes, ontology)[0]


# ------------------------------------------------------- with the assembler


def test_assembled_graph_exports_and_conforms(shapes: Graph, ontology: Graph) -> None:
    from kg.assemble import assemble_graph
    from kg.resolve import CanonicalEntity
    from kg.types import Mention, Paper, PaperRecord, Relation, ResolvedEntity, Result, Source

    records = []
    for n, (doi, abstract) in enumerate(
        [
            ("10.1/a", 'We propose "GNet" and evaluate GNet on MNIST.\nGNet beats LeNet.'),
            (None, "GNet is evaluated on MNIST, reaching 99.1% accuracy \\ \u2028 ✓."),
        ]
    ):
        pid = f"doi:{doi}" if doi else f"paper:{n:016x}"

        def mention(name: str, text: str = abstract) -> Mention:
            start = text.index(name)
            return Mention(name, start, start + len(name))

        paper = Paper(pid, abstract, Source("in.jsonl", n), title=None, venue="ICLR", doi=doi)
        entities = [
            ResolvedEntity("entity:gnet", "GNet", "Method", n == 0, [mention("GNet")]),
            ResolvedEntity("entity:mnist", "MNIST", "Dataset", False, [mention("MNIST")]),
        ]
        span = mention("evaluate")
        relations = [Relation("entity:gnet", "evaluated_on", "entity:mnist", 0, span.end)]
        results = []
        if n == 1:
            value = mention("99.1% accuracy")
            results.append(
                Result("accuracy", "99.1%", value.start, value.end, "entity:gnet", "entity:mnist")
            )
        records.append(
            PaperRecord(paper, entities, relations, results, ["https://github.com/g/net.git"])
        )
    canonical = {
        "entity:gnet": CanonicalEntity("entity:gnet", "GNet", "Method", ["G-Net"], None),
        "entity:mnist": CanonicalEntity(
            "entity:mnist", "MNIST", "Dataset", [], "pwc:dataset:mnist"
        ),
    }
    graph = assemble_graph(records, canonical)
    rdf = to_rdf(graph)
    conforms, _, report = _conforms(rdf, shapes, ontology)
    assert conforms, report
    assert isomorphic(Graph().parse(data="".join(iter_ntriples(graph)), format="nt"), rdf)
    statement = URIRef(statement_iri("entity:gnet", "EVALUATED_ON", "entity:mnist"))
    assert rdf.value(statement, KGO.support) == Literal(2)


def _readme_graph() -> nx.MultiDiGraph:
    abstract = "We propose ResNet and evaluate it on CIFAR-10, reaching 93.4% accuracy."
    paper, result = "arxiv:1512.03385", "result:arxiv:1512.03385:0"
    code = "code:github.com/kaiminghe/deep-residual-networks"
    url = "https://github.com/KaimingHe/deep-residual-networks"
    graph = nx.MultiDiGraph()
    graph.add_node(
        paper,
        label="Paper",
        name="Deep Residual Learning",
        title="Deep Residual Learning",
        abstract=abstract,
        year=2016,
        venue="CVPR",
        doi=None,
        arxiv_id="1512.03385",
        url=None,
        authors=["Kaiming He"],
    )
    graph.add_node("venue:cvpr", label="Venue", name="CVPR")
    graph.add_node(code, label="CodeRepository", name=url, url=url)
    entity = {"aliases": [], "catalogue_id": None, "paper_count": 1, "mention_count": 1}
    graph.add_node(
        "entity:resnet",
        **{**entity, "label": "Method", "name": "ResNet", "aliases": ["ResNets"]},
    )
    graph.nodes["entity:resnet"]["catalogue_id"] = "pwc:method:resnet"
    graph.add_node("entity:cifar-10", **{**entity, "label": "Dataset", "name": "CIFAR-10"})
    graph.add_node(
        result,
        label="Result",
        name="93.4% accuracy",
        value="93.4%",
        metric="accuracy",
        paper=paper,
        **_span(abstract, "93.4% accuracy"),
    )
    evidence = {"paper": paper, **_span(abstract, "ResNet and evaluate it on CIFAR-10")}
    for u, v, key, data in [
        (paper, "venue:cvpr", "PUBLISHED_IN", {"year": 2016}),
        (paper, "entity:resnet", "PROPOSES", {}),
        (paper, "entity:cifar-10", "MENTIONS", {}),
        (paper, code, "HAS_CODE", {}),
        (paper, result, "REPORTS", {}),
        (result, "entity:resnet", "RESULT_OF", {}),
        (result, "entity:cifar-10", "RESULT_ON", {}),
        (
            "entity:resnet",
            "entity:cifar-10",
            "EVALUATED_ON",
            {"support": 1, "evidence": [evidence]},
        ),
    ]:
        graph.add_edge(u, v, key=key, type=key, **data)
    return graph


def test_readme_example_is_the_export_and_conforms(shapes: Graph, ontology: Graph) -> None:
    readme = (ROOT / "ontology" / "README.md").read_text(encoding="utf-8")
    example = readme.split("```turtle\n", 1)[1].split("```", 1)[0]
    uncommented = "".join(line for line in example.splitlines(True) if not line.startswith("#"))
    assert uncommented == "".join(iter_turtle(_readme_graph()))
    parsed = Graph().parse(data=example, format="turtle")
    assert isomorphic(parsed, to_rdf(_readme_graph()))
    conforms, _, report = _conforms(parsed, shapes, ontology)
    assert conforms, report


# ------------------------------------------------ results of real builds against the shapes


def _results_subgraph(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The Result nodes with their papers and every entity a result points to (without the
    relations between those entities: their evidence is in papers left out)."""
    keep = set()
    for node, data in graph.nodes(data=True):
        if data.get("label") == "Result":
            keep |= {node, data["paper"], *graph.successors(node)}
    sub = graph.subgraph(keep).copy()
    sub.remove_edges_from([(u, v, k) for u, v, k in sub.edges(keys=True) if sub.nodes[u]["label"] not in
                           ("Paper", "Result")])
    return sub


def test_the_example_build_conforms_with_rdfs_inference(build_dir, shapes: Graph, ontology: Graph) -> None:
    data = Graph().parse(build_dir / "graph.ttl", format="turtle")
    assert any(data.subjects(RDF.type, KGO.Result))
    conforms, _, report = validate(data, shacl_graph=shapes, ont_graph=ontology, inference="rdfs", advanced=True)
    assert conforms, report


def test_the_results_of_a_real_build_conform(icml2024_build, shapes: Graph, ontology: Graph) -> None:
    """ICML 2024 (2,602 abstracts): every result, its paper and the entities it points to."""
    from kg.export.files import read_graph

    graph = _results_subgraph(read_graph(icml2024_build / "graph.json"))
    results = [n for n, d in graph.nodes(data=True) if d["label"] == "Result"]
    assert len(results) > 300
    on = [v for r in results for _, v, k in graph.out_edges(r, keys=True) if k == "RESULT_ON"]
    assert on and {graph.nodes[v]["label"] for v in on} == {"Dataset"}
    conforms, _, report = _conforms(to_rdf(graph), shapes, ontology)
    assert conforms, report
