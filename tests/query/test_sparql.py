"""kg.query.sparql and ``kg query sparql`` on the example graph (examples/iclr2025).

Every shipped example query is checked against an answer computed
independently from the same build's node-link ``graph.json`` with networkx,
plus a few facts of the example abstracts that any sound extraction keeps
(PRISM is evaluated on CIFAR-10 and MNIST; AFlow is compared with GPT-4o...).
Result formats are read back with independent parsers (json, csv, xml.etree,
rdflib).
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
import xml.etree.ElementTree as ET
from collections import Counter

import pyoxigraph as ox
import pytest
import rdflib
import sparql_helpers as fixtures  # tests/sparql_helpers.py (pytest pythonpath)
from click.testing import CliRunner
from rdflib.compare import isomorphic

from kg.cli.query_sparql import sparql as sparql_command
from kg.export.rdf import node_iri
from kg.query import sparql

RELATIONS = {
    "EVALUATED_ON": "evaluatedOn", "COMPARED_WITH": "comparedWith", "USES": "uses",
    "EXTENDS": "extends", "APPLIED_TO": "appliedTo", "MEASURED_BY": "measuredBy",
}
KGO = "https://w3id.org/kg/ontology#"


@pytest.fixture(scope="session")
def graph(build_dir):
    return fixtures.read_graph(build_dir)


def run(store, name: str) -> sparql.QueryResult:
    return sparql.query(store, sparql.get_example(name).text)


def named(graph, name: str, *, aliases: bool = True) -> set[str]:
    """Nodes whose name (or an alias) is exactly ``name``: what the examples match."""
    return {
        n for n, d in graph.nodes(data=True)
        if d.get("name") == name or (aliases and name in (d.get("aliases") or []))
    }


def edges(graph, kind: str):
    return [(u, v, d) for u, v, k, d in graph.edges(keys=True, data=True) if k == kind]


def label(graph, node) -> str:
    return graph.nodes[node]["label"]


def name(graph, node) -> str:
    return graph.nodes[node]["name"]


# ------------------------------------------------------------------ checking


@pytest.mark.parametrize(
    "text",
    [
        "INSERT DATA { <http://a> <http://b> <http://c> }",
        "PREFIX ex: <http://ex/> DELETE WHERE { ?s ex:p ?o }",
        "BASE <http://x/> PREFIX : <http://y/> insert data { :a :b :c }",
        "LOAD <file:///etc/passwd>",
        "load <http://example.org/data.ttl> INTO GRAPH <http://g>",
        "CLEAR ALL", "DROP GRAPH <http://g>", "CREATE GRAPH <http://g>",
        "COPY DEFAULT TO <http://g>", "MOVE <http://a> TO <http://b>", "ADD <http://a> TO <http://b>",
        "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
        "# a comment\n\\u0049NSERT DATA { <http://a> <http://b> <http://c> }",
    ],
)
def test_check_query_refuses_updates(text):
    with pytest.raises(sparql.QueryRefused, match="read-only"):
        sparql.check_query(text)


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }",
        "select * where { service silent <file:///etc/passwd> { ?s ?p ?o } }",
        "SELECT * WHERE { BIND(<http://h/> AS ?u) SERVICE ?u { ?s ?p ?o } }",
        "SELECT * WHERE {SERVICE<http://h/>{?s ?p ?o}}",
        "SELECT * WHERE { SERVIC\\u0045 <http://h/> { ?s ?p ?o } }",
        "PREFIX s: <http://x/> SELECT * WHERE { ?a s:p ?b . Service <http://h/> { ?s ?p ?o } }",
    ],
)
def test_check_query_refuses_service(text):
    with pytest.raises(sparql.QueryRefused, match="SERVICE"):
        sparql.check_query(text)
    assert sparql.check_query(text, allow_service=True) == "SELECT"


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("SELECT ?service WHERE { ?service <http://x/service> 'SERVICE' }", "SELECT"),
        ('PREFIX service: <http://s/> ASK { ?s service:x """SERVICE { } INSERT""" }', "ASK"),
        ("# SERVICE <http://h/>\nCONSTRUCT WHERE { ?s ?p ?o }", "CONSTRUCT"),
        ("base <http://b/> describe <x>", "DESCRIBE"),
        ("SELECT * WHERE { ?s ?p \"insert \\\" service\" }", "SELECT"),
        ("SELECT * WHERE { ?s ?p ?o FILTER(?o < 3 && ?o > 1) }", "SELECT"),
    ],
)
def test_check_query_allows_keywords_in_names_strings_and_comments(text, form):
    assert sparql.check_query(text) == form


def test_refused_before_the_engine_sees_the_query(store):
    before = len(store)
    with pytest.raises(sparql.QueryRefused):
        sparql.query(store, "INSERT DATA { <http://a> <http://b> <http://c> }")
    with pytest.raises(sparql.SparqlError, match="syntax"):
        sparql.query(store, "SELECT * WHERE { ?s ?p }")
    assert len(store) == before


# ------------------------------------------------------------------- loading


def _triples(store: ox.Store) -> set[str]:
    return set(store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph()).decode().splitlines())


def test_store_from_graph_equals_store_from_turtle(build_dir, graph, store):
    from_graph = sparql.store_from_graph(graph)
    assert len(from_graph) == len(store) > 3000
    assert _triples(from_graph) == _triples(store)
    reference = rdflib.Graph().parse(build_dir / "graph.ttl", format="turtle")
    assert len(reference) == len(store)


def test_load_store_caches_on_disk_and_reuses_it(build_dir, tmp_path):
    work = tmp_path / "out"
    work.mkdir()
    ttl = work / "graph.ttl"
    ttl.write_bytes((build_dir / "graph.ttl").read_bytes())

    assert len(sparql.load_store(work, cache=False)) > 3000
    assert not (work / ".oxigraph").exists()
    assert sparql.load_store(work).__class__ is ox.Store and not (work / ".oxigraph").exists()

    first = sparql.load_store(work, cache=True)
    cached = sparql.store_dir(work)
    assert cached.is_dir() and cached.parent == work / ".oxigraph"
    assert cached.name.startswith(f"graph.ttl-{ox.__version__}-{ttl.stat().st_size}-")
    second = sparql.load_store(work, cache=True)  # opens the cache read-only
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    assert sparql.query(first, query).records() == sparql.query(second, query).records()
    with pytest.raises(RuntimeError, match="read-write"):
        second.update("INSERT DATA { <http://a> <http://b> <http://c> }")

    # a rebuilt graph.ttl gets a new cache and the old one is removed
    ttl.write_bytes(ttl.read_bytes() + b"\n<http://a> <http://b> <http://c> .\n")
    os.utime(ttl, ns=(time.time_ns(), time.time_ns()))
    third = sparql.load_store(work, cache=True)
    assert len(third) == len(first) + 1
    assert [p.name for p in (work / ".oxigraph").iterdir()] == [sparql.store_dir(work).name]


def test_load_store_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="kg build"):
        sparql.load_store(tmp_path)
    bad = tmp_path / "graph.ttl"
    bad.write_text("<http://a> <http://b> .\n")
    with pytest.raises(sparql.SparqlError, match="not valid RDF"):
        sparql.load_store(tmp_path)


# ------------------------------------------------------------------ examples


def test_examples_are_documented_and_answer_on_the_example_graph(store):
    found = sparql.examples()
    assert len(found) >= 10
    for example in found:
        assert example.question.endswith("?"), example.name
        assert len(example.description) > 80, example.name
        assert example.form in ("SELECT", "CONSTRUCT"), example.name
        result = sparql.query(store, example.text)
        assert len(result) > 0, example.name
    with pytest.raises(KeyError, match="top_benchmarks"):
        sparql.get_example("nope")
    with pytest.raises(KeyError):
        sparql.get_example("../pyproject")


def test_datasets_of_method(graph, store):
    rows = run(store, "datasets_of_method").records()
    methods = named(graph, "PRISM")
    expected = {
        (node_iri(d), name(graph, d), data["support"],
         frozenset(name(graph, e["paper"]) for e in data["evidence"]))
        for m in methods for _, d, data in edges(graph, "EVALUATED_ON")
        if _ == m and label(graph, d) == "Dataset"
    }
    got = {(r["dataset"], r["datasetLabel"], r["support"], frozenset(r["papers"].split(" | ")))
           for r in rows}
    assert got == expected
    assert {"CIFAR-10", "MNIST"} <= {r["datasetLabel"] for r in rows}
    assert [r["support"] for r in rows] == sorted((r["support"] for r in rows), reverse=True)


def _ranked(graph, kind: str, relation: str, limit: int):
    ranked = []
    for node, data in graph.nodes(data=True):
        if data.get("label") != kind:
            continue
        papers = {u for u, _, k in graph.in_edges(node, keys=True) if k in ("MENTIONS", "PROPOSES")}
        if not papers:
            continue
        methods = {u for u, _, k in graph.in_edges(node, keys=True) if k == relation}
        assert len(papers) == data["paper_count"]
        ranked.append((node_iri(node), data["name"], len(papers), len(methods)))
    return sorted(ranked, key=lambda r: (-r[2], -r[3], r[1]))[:limit]


def test_top_benchmarks(graph, store):
    rows = run(store, "top_benchmarks").records()
    got = [(r["dataset"], r["label"], r["papers"], r["evaluatedMethods"]) for r in rows]
    assert got == _ranked(graph, "Dataset", "EVALUATED_ON", 20)
    assert got[0][1] == "CIFAR-10" and got[0][2] >= 2


def test_top_tasks(graph, store):
    rows = run(store, "top_tasks").records()
    got = [(r["task"], r["label"], r["papers"], r["appliedMethods"]) for r in rows]
    assert got == _ranked(graph, "Task", "APPLIED_TO", 20)


def test_proposals_compared_with(graph, store):
    rows = run(store, "proposals_compared_with").records()
    baselines = named(graph, "GPT-4o")
    expected = set()
    for paper, proposed, _ in edges(graph, "PROPOSES"):
        for b in baselines:
            if graph.has_edge(proposed, b, "COMPARED_WITH") or graph.has_edge(b, proposed, "COMPARED_WITH"):
                expected.add((node_iri(paper), node_iri(proposed), "compared with"))
            for _, result, k in graph.out_edges(paper, keys=True):
                if (k == "REPORTS" and graph.has_edge(result, proposed, "RESULT_OF")
                        and graph.has_edge(result, b, "RESULT_AGAINST")):
                    expected.add((node_iri(paper), node_iri(proposed), "result against"))
    assert {(r["paper"], r["proposed"], r["how"]) for r in rows} == expected
    aflow = {r["how"] for r in rows if r["proposedLabel"].lower() == "aflow"}
    assert aflow == {"compared with", "result against"}


def test_methods_sharing_datasets(graph, store):
    rows = run(store, "methods_sharing_datasets").records()
    shared: dict[str, set[str]] = {}
    for m in named(graph, "PRISM"):
        datasets = {d for u, d, _ in edges(graph, "EVALUATED_ON") if u == m and label(graph, d) == "Dataset"}
        for other, d, _ in edges(graph, "EVALUATED_ON"):
            if d in datasets and other != m:
                shared.setdefault(other, set()).add(d)
    expected = {(node_iri(o), len(ds), frozenset(name(graph, d) for d in ds)) for o, ds in shared.items()}
    got = {(r["other"], r["shared"], frozenset(r["datasets"].split(", "))) for r in rows}
    assert got == expected
    assert "DDN" in {r["otherLabel"] for r in rows}


def test_code_for_dataset(graph, store):
    rows = run(store, "code_for_dataset").records()
    expected = set()
    for d in named(graph, "CIFAR-10"):
        if label(graph, d) != "Dataset":
            continue
        for m, target, _ in edges(graph, "EVALUATED_ON"):
            if target != d:
                continue
            for paper, proposed, _ in edges(graph, "PROPOSES"):
                if proposed == m:
                    for _, code, k in graph.out_edges(paper, keys=True):
                        if k == "HAS_CODE":
                            expected.add((node_iri(m), node_iri(paper), graph.nodes[code]["url"]))
    assert {(r["method"], r["paper"], r["code"]) for r in rows} == expected
    assert "https://discrete-distribution-networks.github.io/" in {r["code"] for r in rows}


def test_relation_evidence_quotes_the_abstract(graph, store):
    rows = run(store, "relation_evidence").records()
    (prism,), (cifar,) = named(graph, "PRISM"), named(graph, "CIFAR-10")
    data = graph.edges[prism, cifar, "EVALUATED_ON"]
    assert {(r["paper"], r["start"], r["end"]) for r in rows} == {
        (node_iri(e["paper"]), e["start"], e["end"]) for e in data["evidence"]
    }
    for row in rows:
        paper = next(n for n in graph if node_iri(n) == row["paper"])
        assert row["text"] == graph.nodes[paper]["abstract"][row["start"]:row["end"]]
        assert row["support"] == data["support"]
        assert "PRISM" in row["text"] and "CIFAR" in row["text"]


def test_results_on_dataset(graph, store):
    rows = run(store, "results_on_dataset").records()
    expected = set()
    for d in named(graph, "GSM8K"):
        for result, target, _ in edges(graph, "RESULT_ON"):
            if target != d:
                continue
            node = graph.nodes[result]
            of = {name(graph, v) for _, v, k in graph.out_edges(result, keys=True) if k == "RESULT_OF"}
            against = {name(graph, v) for _, v, k in graph.out_edges(result, keys=True) if k == "RESULT_AGAINST"}
            text = graph.nodes[node["paper"]]["abstract"][node["start"]:node["end"]]
            expected.add((node_iri(result), node["value"], node["metric"], frozenset(of),
                          frozenset(against), text))
    got: dict[str, list] = {}
    for r in rows:
        entry = got.setdefault(r["result"], [r["value"], r.get("metric"), set(), set(), r.get("text")])
        entry[2].update([r["methodLabel"]] if "methodLabel" in r else [])
        entry[3].update([r["baselineLabel"]] if "baselineLabel" in r else [])
    assert {(k, v[0], v[1], frozenset(v[2]), frozenset(v[3]), v[4]) for k, v in got.items()} == expected
    assert "73% -> 93.4%" in {r["value"] for r in rows}


def test_best_results_on_dataset(graph, store):
    rows = run(store, "best_results_on_dataset").records()
    expected = {}
    for d in named(graph, "GSM8K"):
        for result, target, _ in edges(graph, "RESULT_ON"):
            node = graph.nodes[result]
            if target == d and node.get("number") is not None:
                abstract = graph.nodes[node["paper"]]["abstract"]
                expected[node["value"]] = (node["number"], abstract[node["sentence_start"]:node["sentence_end"]])
    assert expected, "the example build states a score on GSM8K"
    assert {r["value"]: (float(r["score"]), r["sentence"]) for r in rows} == expected
    for metric in {r.get("metric") for r in rows}:
        scores = [float(r["score"]) for r in rows if r.get("metric") == metric]
        lower = any(r.get("direction") == "lower" for r in rows if r.get("metric") == metric)
        assert scores == sorted(scores, reverse=not lower)


def test_papers_by_venue_year(graph, store):
    rows = run(store, "papers_by_venue_year").records()
    papers: Counter = Counter()
    proposals: dict = {}
    for node, data in graph.nodes(data=True):
        if data["label"] != "Paper":
            continue
        venues = [name(graph, v) for _, v, k in graph.out_edges(node, keys=True) if k == "PUBLISHED_IN"]
        key = (venues[0] if venues else None, data.get("year"))
        papers[key] += 1
        proposals.setdefault(key, set()).update(
            v for _, v, k in graph.out_edges(node, keys=True) if k == "PROPOSES")
    got = {(r.get("venue"), r.get("year")): (r["papers"], r["proposals"]) for r in rows}
    assert got == {key: (papers[key], len(proposals[key])) for key in papers}
    assert got[("ICLR", 2025)][0] == 38


def test_catalogue_links(graph, store):
    rows = run(store, "catalogue_links").records()
    expected = {
        (node_iri(n), d["name"], d["label"], d["catalogue_id"], d["catalogue_id"].split(":")[0],
         d["paper_count"])
        for n, d in graph.nodes(data=True) if d.get("catalogue_id")
    }
    got = {(r["entity"], r["label"], r["type"], r["catalogueId"], r["catalogue"], r["papers"])
           for r in rows}
    assert got == expected
    assert ("CIFAR-10", "pwc:dataset:cifar-10") in {(r["label"], r["catalogueId"]) for r in rows}


def test_strongest_relations(graph, store):
    rows = run(store, "strongest_relations").records()
    everything = sorted(
        ((name(graph, u), RELATIONS[k], name(graph, v), d["support"],
          sparql_statement(u, k, v))
         for u, v, k, d in graph.edges(keys=True, data=True) if k in RELATIONS),
        key=lambda r: -r[3],
    )
    got = [(r["subjectLabel"], r["relation"], r["objectLabel"], r["support"], r["statement"])
           for r in rows]
    assert set(got) <= set(everything)  # each row is a relation of the graph, right support
    assert sorted(r[3] for r in got) == sorted(r[3] for r in everything[:25])
    cut = everything[24][3]
    assert {r for r in everything if r[3] > cut} <= set(got)  # all above the tie at the cut
    assert [r[3] for r in got] == sorted((r[3] for r in got), reverse=True)
    assert got[0][3] == everything[0][3] >= 1


def sparql_statement(u: str, kind: str, v: str) -> str:
    from kg.export.rdf import statement_iri

    return statement_iri(u, kind, v)


def test_evaluated_on_one_not_other(graph, store):
    rows = run(store, "evaluated_on_one_not_other").records()
    on, off = named(graph, "CIFAR-10"), named(graph, "MNIST")
    expected = {
        node_iri(m) for m, d, _ in edges(graph, "EVALUATED_ON")
        if d in on and not any(graph.has_edge(m, x, "EVALUATED_ON") for x in off)
    }
    assert {r["method"] for r in rows} == expected
    assert "DDN" in {r["methodLabel"] for r in rows}
    assert "PRISM" not in {r["methodLabel"] for r in rows}


def test_entity_graph_constructs_the_neighbourhood(graph, store):
    result = run(store, "entity_graph")
    assert result.form == "CONSTRUCT" and result.variables == ("subject", "predicate", "object")
    (entity,) = named(graph, "Speculative RAG", aliases=False)
    expected = {
        (node_iri(u), KGO + RELATIONS[k], node_iri(v))
        for u, v, k in graph.edges(keys=True) if k in RELATIONS and entity in (u, v)
    }
    got = {tuple(sparql.to_python(t) for t in row) for row in result.rows}
    assert {t for t in got if t[1].startswith(KGO)} == expected
    assert (node_iri(entity), "http://www.w3.org/2000/01/rdf-schema#label", "Speculative RAG") in got
    assert any(t[2] == node_iri(named(graph, "TriviaQA").pop()) for t in expected)


# ------------------------------------------------------------------- formats


def _write(store, text, fmt) -> bytes:
    out = io.BytesIO()
    sparql.write_results(store, text, out, fmt)
    return out.getvalue()


def test_write_results_json_csv_tsv_xml(store):
    text = sparql.get_example("top_benchmarks").text
    records = run(store, "top_benchmarks").records()
    variables = ["dataset", "label", "papers", "evaluatedMethods"]

    data = json.loads(_write(store, text, "json"))
    assert data["head"]["vars"] == variables
    assert [{k: v["value"] for k, v in b.items()} for b in data["results"]["bindings"]] == [
        {k: str(v) for k, v in r.items()} for r in records
    ]
    assert data["results"]["bindings"][0]["dataset"]["type"] == "uri"
    assert data["results"]["bindings"][0]["papers"]["datatype"].endswith("#integer")

    rows = list(csv.reader(io.StringIO(_write(store, text, "csv").decode())))
    assert rows[0] == variables
    assert rows[1:] == [[str(r[v]) for v in variables] for r in records]

    lines = _write(store, text, "tsv").decode().splitlines()
    assert lines[0].split("\t") == [f"?{v}" for v in variables]
    first = lines[1].split("\t")
    assert first[0] == f"<{records[0]['dataset']}>" and first[1] == f'"{records[0]["label"]}"'
    assert first[2] == str(records[0]["papers"])

    root = ET.fromstring(_write(store, text, "xml"))
    ns = {"r": "http://www.w3.org/2005/sparql-results#"}
    assert [v.get("name") for v in root.findall("r:head/r:variable", ns)] == variables
    assert len(root.findall("r:results/r:result", ns)) == len(records)

    ask = json.loads(_write(store, "ASK { ?s a <https://w3id.org/kg/ontology#Dataset> }", "json"))
    assert ask["boolean"] is True


def test_write_results_turtle_for_construct(store):
    text = sparql.get_example("entity_graph").text
    result = run(store, "entity_graph")
    parsed = rdflib.Graph().parse(data=_write(store, text, "turtle").decode(), format="turtle")
    expected = rdflib.Graph()
    for row in result.rows:
        s, p, o = (sparql.to_python(t) for t in row)
        obj = rdflib.Literal(o) if isinstance(row[2], ox.Literal) else rdflib.URIRef(o)
        expected.add((rdflib.URIRef(s), rdflib.URIRef(p), obj))
    assert isomorphic(parsed, expected)
    nt = rdflib.Graph().parse(data=_write(store, text, "ntriples").decode(), format="nt")
    assert isomorphic(nt, expected)
    with pytest.raises(sparql.SparqlError, match="turtle"):
        _write(store, text, "csv")
    with pytest.raises(sparql.SparqlError, match="json"):
        _write(store, sparql.get_example("top_tasks").text, "turtle")


def test_format_table_compacts_iris(store):
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(sparql.format_table(run(store, "datasets_of_method")))
    text = console.export_text()
    assert "entity:cifar-10" in text and "CIFAR-10" in text and "https://" not in text


# ----------------------------------------------------------------------- CLI


def invoke(*args):
    return CliRunner().invoke(sparql_command, [str(a) for a in args], catch_exceptions=False)


def test_cli_runs_an_example_as_csv(build_dir, graph):
    done = invoke(build_dir, "--example", "top_benchmarks", "--format", "csv")
    assert done.exit_code == 0, done.output
    rows = list(csv.DictReader(io.StringIO(done.output)))
    expected = _ranked(graph, "Dataset", "EVALUATED_ON", 20)
    assert [(r["label"], int(r["papers"])) for r in rows] == [(e[1], e[2]) for e in expected]


def test_cli_query_text_file_and_table(build_dir, store, tmp_path):
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    done = invoke(build_dir, count, "--format", "json")
    assert done.exit_code == 0
    assert json.loads(done.output)["results"]["bindings"][0]["n"]["value"] == str(len(store))
    query_file = tmp_path / "q.rq"
    query_file.write_text(sparql.get_example("papers_by_venue_year").text)
    table = invoke(build_dir, "--file", query_file)
    assert table.exit_code == 0 and "ICLR" in table.output and "2025" in table.output
    assert len(table.output.splitlines()) == 2  # not a terminal: a header line and one line per row
    ttl = invoke(build_dir / "graph.ttl", "--example", "entity_graph", "--format", "turtle")
    assert ttl.exit_code == 0
    assert len(rdflib.Graph().parse(data=ttl.output, format="turtle")) == len(run(store, "entity_graph"))


def test_cli_lists_and_shows_examples():
    listed = CliRunner().invoke(sparql_command, ["--list-examples"], terminal_width=200)
    assert listed.exit_code == 0
    for example in sparql.examples():
        assert example.name in listed.output
    shown = invoke("--example", "relation_evidence", "--show-query")
    assert shown.exit_code == 0 and shown.output == sparql.get_example("relation_evidence").text


def test_cli_errors(build_dir, tmp_path):
    refused = invoke(build_dir, "INSERT DATA { <http://a> <http://b> <http://c> }")
    assert refused.exit_code == 1 and "read-only" in refused.output
    service = invoke(build_dir, "SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }")
    assert service.exit_code == 1 and "SERVICE" in service.output
    syntax = invoke(build_dir, "SELECT * WHERE { ?s ?p }")
    assert syntax.exit_code == 1 and "syntax error" in syntax.output
    wrong = invoke(build_dir, "--example", "entity_graph", "--format", "csv")
    assert wrong.exit_code == 1 and "turtle" in wrong.output
    assert invoke(build_dir).exit_code == 2
    assert invoke("--example", "top_tasks").exit_code == 2
    assert invoke(build_dir, "--example", "nope").exit_code == 2
    missing = invoke(tmp_path, "--example", "top_tasks")
    assert missing.exit_code == 1 and "kg build" in missing.output
    assert invoke("--help").exit_code == 0
