"""Every file kg writes, opened by the tool its users open it in, on two real builds.

The builds: ``examples/iclr2025`` (38 abstracts, text lists) and ICML 2024's 2,602
abstracts of ``shared/data/openreview`` (JSON Lines; skipped only when absent), each
built once per session with every default output (tests/sparql_helpers.py), plus
``kg map`` of each. The consumers:

* SHACL: pyshacl with kg's own shapes, with and without RDFS inference, and the
  command ``kg export ontology --help`` suggests;
* Turtle and N-Triples: rapper (raptor2, an independent parser); JSON-LD: pyld;
* GraphML: networkx and igraph read it; Gephi's import rules and the GraphML rules yEd
  and Cytoscape rely on (tests/consumers.py);
* GEXF: Gephi's GEXF import rules and networkx;
* VOSviewer map and network files: VOSviewer's documented format, quoting included;
* the map's CSV tables: Python's csv reader, every row as wide as its header.
"""

from __future__ import annotations

import csv
import json
import re
import shlex
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from consumers import gephi_graphml, gexf_problems, graphml_problems, vosviewer_problems

from kg.cli import main

BUILDS = ["example", "icml2024"]


@pytest.fixture(scope="module", params=BUILDS)
def real_build(request) -> Path:
    return request.getfixturevalue("build_dir" if request.param == "example" else "icml2024_build")


@pytest.fixture(scope="module")
def ontology(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ontology")
    result = CliRunner().invoke(main, ["export", "ontology", "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return out


def _graph(build: Path) -> nx.MultiDiGraph:
    from kg.export.files import read_graph

    return read_graph(build)


# ------------------------------------------------------------------ SHACL


@contextmanager
def prepared_queries():
    """pyshacl hands rdflib the text of each SPARQL constraint once per focus node, and rdflib
    parses it every time: on ICML's build (7,564 evidence nodes, 6,868 statements) about 38,000
    parses, an hour on two cores. Within this block each distinct text is parsed once and the
    prepared query reused, which is what rdflib's prepareQuery is for; the evaluation, and so the
    report, is unchanged (checked on the example build)."""
    from rdflib.plugins.sparql import processor

    original = processor.SPARQLProcessor.query
    prepared: dict = {}

    def query(self, text, initBindings=None, initNs=None, base=None, DEBUG=False):
        if isinstance(text, str):
            key = (text, base, tuple(sorted((initNs or {}).items())))
            if key not in prepared:
                prepared[key] = processor.translateQuery(processor.parseQuery(text), base, initNs)
            text = prepared[key]
        return original(self, text, initBindings, initNs, base, DEBUG)

    processor.SPARQLProcessor.query = query
    try:
        yield
    finally:
        processor.SPARQLProcessor.query = original


def _validate(build: Path, ontology: Path, inference: str) -> tuple[bool, str]:
    from pyshacl import validate
    from rdflib import Graph

    conforms, _, text = validate(
        Graph().parse(build / "graph.ttl"), shacl_graph=Graph().parse(ontology / "shapes.ttl"),
        ont_graph=Graph().parse(ontology / "kg.ttl"), inference=inference, advanced=True,
    )
    return conforms, text


def test_prepared_queries_leave_the_shacl_report_as_it_is(build_dir, ontology, tmp_path):
    """The speed-up above changes nothing: the same report with and without it, on a graph
    with violations of every SPARQL constraint (and of core ones)."""
    import re as regex

    broken = tmp_path / "broken"
    broken.mkdir()
    text = (build_dir / "graph.ttl").read_text("utf-8")
    text = regex.sub(r"kgo:evidenceEnd (\d+)", lambda m: f"kgo:evidenceEnd {int(m.group(1)) + 100000}", text, count=3)
    text = regex.sub(r"kgo:support (\d+)", "kgo:support 0", text, count=2)
    (broken / "graph.ttl").write_text(text, encoding="utf-8")
    plain = _validate(broken, ontology, "none")
    with prepared_queries():
        fast = _validate(broken, ontology, "none")
    assert not plain[0] and plain[1].count("Constraint Violation") >= 5
    assert sorted(plain[1].split("\nConstraint Violation")) == sorted(fast[1].split("\nConstraint Violation"))


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_real_build_conforms_to_the_shapes(real_build, ontology, inference):

    with prepared_queries():
        conforms, text = _validate(real_build, ontology, inference)
    assert conforms, text[:3000]


def test_the_validation_command_in_the_ontology_help_conforms(build_dir, ontology, tmp_path):
    """`kg export ontology --help` shows how to validate; that very command, run on a real
    build, conforms (without -e kg.ttl it once reported 602 violations)."""
    help_text = CliRunner().invoke(main, ["export", "ontology", "--help"]).output
    line = next(line.strip() for line in help_text.splitlines() if "pyshacl" in line)
    command = shlex.split(line[line.index("pyshacl"):].rstrip(")."))
    files = {"shapes.ttl": ontology / "shapes.ttl", "kg.ttl": ontology / "kg.ttl",
             "graph.ttl": build_dir / "graph.ttl"}
    argv = [str(files.get(Path(arg).name, arg)) for arg in command]
    argv[0] = str(Path(sys.executable).parent / "pyshacl")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    assert "Conforms: True" in done.stdout, done.stdout[:2000] + done.stderr[:2000]


# ------------------------------------------------------------------ RDF


def _rapper_count(path: Path, syntax: str) -> int:
    done = subprocess.run(["rapper", "-i", syntax, "-c", str(path)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "error" not in done.stderr.lower(), done.stderr[-2000:]
    return int(re.search(r"returned (\d+) triples", done.stderr).group(1))


@pytest.fixture(scope="module")
def serialisations(real_build, tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("rdf")
    files = {"turtle": real_build / "graph.ttl"}
    for fmt, name in (("ntriples", "graph.nt"), ("jsonld", "graph.jsonld")):
        result = CliRunner().invoke(main, ["export", "rdf", str(real_build), "-o", str(out / name), "-q"])
        assert result.exit_code == 0, result.output
        files[fmt] = out / name
    return files


def test_turtle_and_ntriples_read_in_rapper_with_the_same_triples(serialisations):
    turtle = _rapper_count(serialisations["turtle"], "turtle")
    assert turtle == _rapper_count(serialisations["ntriples"], "ntriples") > 1000


def test_jsonld_reads_in_pyld_with_the_same_triples(serialisations):
    from pyld import jsonld

    document = json.loads(serialisations["jsonld"].read_text("utf-8"))
    quads = jsonld.to_rdf(document, {"format": "application/n-quads"})
    lines = {line for line in quads.splitlines() if line.strip()}
    ntriples = {line for line in serialisations["ntriples"].read_text("utf-8").splitlines() if line.strip()}
    assert len(lines) == len(ntriples)


# ------------------------------------------------------------------ GraphML


def test_graphml_reads_in_networkx_and_igraph(real_build):
    import igraph

    graph = _graph(real_build)
    back = nx.read_graphml(real_build / "graph.graphml", force_multigraph=True)
    assert (back.number_of_nodes(), back.number_of_edges()) == (graph.number_of_nodes(), graph.number_of_edges())
    other = igraph.Graph.Read_GraphML(str(real_build / "graph.graphml"))
    assert (other.vcount(), other.ecount()) == (graph.number_of_nodes(), graph.number_of_edges())
    assert set(other.vs["type"]) == {d["label"] for _, d in graph.nodes(data=True)}


def test_gephi_keeps_every_edge_and_labels_nodes_by_name(real_build):
    graph = _graph(real_build)
    gephi = gephi_graphml(real_build / "graph.graphml")
    assert gephi.issues == []
    assert len(gephi.edges) == gephi.edge_elements == graph.number_of_edges()
    names = {node: " ".join(str(data["name"]).split()) for node, data in graph.nodes(data=True)}
    shown = {node: " ".join(label.split()) for node, label in gephi.labels.items()}
    assert shown == names


def test_graphml_follows_the_rules_yed_and_cytoscape_read_by(real_build):
    assert graphml_problems(real_build / "graph.graphml") == []


# ------------------------------------------------------------------ kg map: GEXF, VOSviewer, CSV


@pytest.fixture(scope="module")
def field_map(real_build, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("map")
    result = CliRunner().invoke(main, ["map", str(real_build), "-o", str(out), "--no-overview", "-q"])
    assert result.exit_code == 0, result.output
    return out


def test_gexf_files_follow_gephis_import_rules(field_map):
    for name in ("graph.gexf", "cooccurrence.gexf"):
        assert gexf_problems(field_map / name) == [], name
        assert nx.read_gexf(field_map / name).number_of_nodes() > 10


def test_vosviewer_files_follow_the_documented_format(field_map):
    maps = sorted((field_map / "vosviewer").glob("*_map.txt"))
    assert maps
    for map_path in maps:
        network = map_path.with_name(map_path.name.replace("_map.txt", "_network.txt"))
        assert vosviewer_problems(map_path, network) == [], map_path.name


def test_map_tables_read_as_csv_with_every_row_as_wide_as_its_header(field_map):
    tables = sorted(field_map.glob("*.csv"))
    assert len(tables) >= 4
    for path in tables:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        assert rows and all(len(row) == len(rows[0]) for row in rows), path.name
        for row in rows:  # a cell a spreadsheet would run as a formula is a number, or neutralised
            assert all(_number(cell) for cell in row if cell.startswith(("=", "+", "-", "@"))), (path.name, row)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
