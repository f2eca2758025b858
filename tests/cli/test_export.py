import csv
import os
import subprocess
import sys
import time

import pyoxigraph as ox
import pytest
import rdflib
from click.testing import CliRunner

from kg.cli import main


@pytest.mark.parametrize("command", [["export"], ["export", "neo4j"], ["export", "neo4j-bulk"],
                                     ["export", "cypher-script"], ["export", "rdf"], ["export", "file"],
                                     ["export", "ontology"]])
def test_export_commands_have_help(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


@pytest.mark.parametrize("suffix, fmt", [(".ttl", ox.RdfFormat.TURTLE), (".nt", ox.RdfFormat.N_TRIPLES),
                                         (".jsonld", ox.RdfFormat.JSON_LD)])
def test_export_rdf_formats_parse(tmp_path, small_build, suffix, fmt):
    out, graph = small_build
    target = tmp_path / f"g{suffix}"
    result = CliRunner().invoke(main, ["export", "rdf", str(out), "-o", str(target)])
    assert result.exit_code == 0, result.output
    label = ox.NamedNode(str(rdflib.RDFS.label))
    labels = {q.object.value for q in ox.parse(path=str(target), format=fmt) if q.predicate == label}
    assert {"Zorbnet", "Quorbit", "MNIST"} <= labels


def test_export_neo4j_bulk_writes_csvs_and_the_command(tmp_path, small_build):
    out, graph = small_build
    result = CliRunner().invoke(main, ["export", "neo4j-bulk", str(out), "-o", str(tmp_path / "bulk")])
    assert result.exit_code == 0, result.output
    assert "neo4j-admin database import full" in result.output
    rows = sum(len(list(csv.reader(p.read_text("utf-8").splitlines()))) - 1 for p in (tmp_path / "bulk").glob("*.csv"))
    assert rows == graph.number_of_nodes() + graph.number_of_edges()


@pytest.fixture
def no_networkx_graph(monkeypatch):
    """Fail any code that builds a networkx multigraph (what reading graph.json whole makes)."""
    import networkx as nx

    def refuse(*args, **kwargs):
        raise AssertionError("a networkx graph was built")

    monkeypatch.setattr(nx.MultiDiGraph, "__init__", refuse)
    monkeypatch.setattr(nx, "node_link_graph", refuse)


def test_export_neo4j_bulk_streams_the_example_build(build_dir, tmp_path, no_networkx_graph, monkeypatch):
    """The example build's CSVs, written with no networkx graph, are byte for byte those of
    the writer before streaming (which read graph.json whole)."""
    result = CliRunner().invoke(main, ["export", "neo4j-bulk", str(build_dir), "-o", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    monkeypatch.undo()
    from neo4j_bulk_reference import write_bulk_csv_held

    from kg.builddir import BuildDir

    write_bulk_csv_held(BuildDir(build_dir).read_graph(), tmp_path / "held")
    held = {p.name: p.read_bytes() for p in (tmp_path / "held").iterdir()}
    assert {p.name: p.read_bytes() for p in (tmp_path / "cli").iterdir()} == held and len(held) > 15


def test_export_neo4j_streams_the_example_build(build_dir, neo4j_server, neo4j_driver, no_networkx_graph,
                                                monkeypatch):
    """`kg export neo4j` of the example build builds no networkx graph and loads what the
    held rows of the whole graph hold: every node and relationship with its properties."""
    env = {"NEO4J_PASSWORD": neo4j_server.password}
    result = CliRunner(env=env).invoke(main, ["export", "neo4j", str(build_dir), "--uri", neo4j_server.uri,
                                              "--batch-size", "7"])
    assert result.exit_code == 0, result.output
    monkeypatch.undo()
    from kg.builddir import BuildDir
    from kg.export.neo4j import to_rows

    graph = BuildDir(build_dir).read_graph()
    rows = to_rows(graph)
    assert f": {graph.number_of_nodes()} nodes and {graph.number_of_edges()} relationships created" in result.output
    nodes = {r["id"]: (r["labels"], r["props"]) for r in neo4j_driver.execute_query(
        "MATCH (n) RETURN n.id AS id, labels(n) AS labels, properties(n) AS props").records}
    assert nodes == {row["id"]: ([label], {"id": row["id"], **row["props"]})
                     for label, group in rows.nodes.items() for row in group}
    rels = {(r["a"], r["t"], r["b"]): r["props"] for r in neo4j_driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, b.id AS b, properties(r) AS props").records}
    assert rels == {(row["src"], rel_type, row["dst"]): row["props"]
                    for (rel_type, _, _), group in rows.relationships.items() for row in group}


@pytest.mark.parametrize("text", ['{"nodes": [{"id": "a", ', '{"edges": []}', "[]"])
def test_export_neo4j_bulk_of_a_file_that_is_not_a_graph_is_one_line(tmp_path, text):
    (tmp_path / "own").mkdir()
    (tmp_path / "own" / "graph.json").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "neo4j-bulk", str(tmp_path / "own"), "-o", str(tmp_path / "bulk")])
    assert result.exit_code == 1 and (result.exception is None or isinstance(result.exception, SystemExit))
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "is not a kg graph" in lines[0], result.output
    assert not (tmp_path / "bulk").exists()


def _kg(*args: str, password: str | None = None) -> subprocess.CompletedProcess:
    """`kg ARGS` in a new Python process (as a user runs it), the password in the environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    if password is not None:
        env["NEO4J_PASSWORD"] = password
    command = [sys.executable, "-c", "from kg.cli import main; main()", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)


def _counts(driver) -> tuple[int, int]:
    (record,) = driver.execute_query(
        "MATCH (n) WITH count(n) AS nodes OPTIONAL MATCH ()-[r]->() RETURN nodes, count(r) AS rels"
    ).records
    return record["nodes"], record["rels"]


def _one_line_error(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_export_neo4j_twice_from_two_processes_changes_nothing(small_build, neo4j_server, neo4j_driver):
    out, graph = small_build
    args = ["export", "neo4j", str(out), "--uri", neo4j_server.uri, "--user", "neo4j"]
    first = _kg(*args, password=neo4j_server.password)
    assert first.returncode == 0, first.stderr
    nodes, rels = graph.number_of_nodes(), graph.number_of_edges()
    assert f": {nodes} nodes and {rels} relationships created" in first.stdout
    assert neo4j_server.password not in first.stdout + first.stderr
    before = neo4j_driver.execute_query(
        "MATCH (n) RETURN n.id AS id, properties(n) AS p ORDER BY id"
    ).records
    second = _kg(*args, "--batch-size", "3", password=neo4j_server.password)
    assert second.returncode == 0, second.stderr
    assert ": 0 nodes and 0 relationships created" in second.stdout
    assert _counts(neo4j_driver) == (nodes, rels)
    after = neo4j_driver.execute_query(
        "MATCH (n) RETURN n.id AS id, properties(n) AS p ORDER BY id"
    ).records
    assert after == before


def test_export_neo4j_database_option(small_build, neo4j_server, neo4j_driver):
    out, graph = small_build
    args = ["export", "neo4j", str(out), "--uri", neo4j_server.uri, "-q", "--database"]
    result = _kg(*args, "neo4j", password=neo4j_server.password)
    assert result.returncode == 0, result.stderr
    assert _counts(neo4j_driver) == (graph.number_of_nodes(), graph.number_of_edges())
    result = _kg(*args, "nosuch", password=neo4j_server.password)
    assert result.returncode == 1
    assert "database 'nosuch'" in _one_line_error(result)


@pytest.mark.parametrize(
    "uri, password, expected",
    [
        ("{uri}", "wrong-password", "wrong user name or password"),
        ("bolt://127.0.0.1:{free}", "s3cret-pw-long", "cannot connect to Neo4j at bolt://127.0.0.1:"),
        ("http://127.0.0.1:7474", "s3cret-pw-long", "URI must start with bolt://"),
        ("bolt://127.0.0.1:{free}", "127", "127.0.0.1:"),
    ],
)
def test_export_neo4j_errors_are_one_clear_line(small_build, neo4j_server, uri, password, expected):
    from neo4j_server import free_port

    out, _ = small_build
    uri = uri.format(uri=neo4j_server.uri, free=free_port())
    result = _kg("export", "neo4j", str(out), "--uri", uri, "-q", password=password)
    assert result.returncode == 1
    line = _one_line_error(result)
    assert expected in line and "***" not in line
    assert password not in line or password == "127"


def test_export_neo4j_server_killed_mid_load_then_a_rerun_completes(tmp_path):
    """`kg export neo4j` loads a graph in small batches; the server is killed (SIGKILL)
    once the first rows are in. The command fails with one line; the server, restarted
    on the same data, recovers, and the same command then completes the graph."""
    import networkx as nx
    from neo4j_server import Neo4jServer

    from kg.export.files import write_node_link

    graph = nx.MultiDiGraph()
    for i in range(2000):
        paper, method = f"paper:{i}", f"entity:method-{i % 300}"
        graph.add_node(paper, label="Paper", name=f"Paper {i}", year=2024)
        graph.add_node(method, label="Method", name=f"Method {i % 300}")
        graph.add_edge(paper, method, key="MENTIONS", type="MENTIONS", count=1)
    out = tmp_path / "build"
    out.mkdir()
    write_node_link(graph, out / "graph.json")
    with Neo4jServer(heap="512m") as server:
        driver = server.driver()
        args = ["export", "neo4j", str(out), "--uri", server.uri, "--batch-size", "5", "-q"]
        env = {**os.environ, "NEO4J_PASSWORD": server.password}
        command = [sys.executable, "-c", "from kg.cli import main; main()", *args]
        loading = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        deadline = time.monotonic() + 120
        while _counts(driver)[0] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill()
        stdout, stderr = loading.communicate(timeout=300)
        assert loading.returncode == 1, stdout + stderr
        line = _one_line_error(subprocess.CompletedProcess(command, 1, stdout, stderr))
        assert "re-running the load completes it" in line and server.password not in line

        server.start()
        driver = server.driver()
        nodes, _ = _counts(driver)
        assert 0 < nodes < graph.number_of_nodes()
        rerun = _kg(*args[:-3], "-q", password=server.password)
        assert rerun.returncode == 0, rerun.stderr
        assert _counts(driver) == (graph.number_of_nodes(), graph.number_of_edges())


def test_export_ontology_writes_the_shapes_an_export_satisfies(tmp_path, small_build):
    from pyshacl import validate

    out, _graph = small_build
    result = CliRunner().invoke(main, ["export", "ontology", "-o", str(tmp_path / "onto")])
    assert result.exit_code == 0, result.output
    ontology = rdflib.Graph().parse(tmp_path / "onto" / "kg.ttl")
    assert (rdflib.URIRef("https://w3id.org/kg/ontology"), rdflib.RDF.type, rdflib.OWL.Ontology) in ontology
    shapes = rdflib.Graph().parse(tmp_path / "onto" / "shapes.ttl")
    conforms, _, report = validate(rdflib.Graph().parse(out / "graph.ttl"), shacl_graph=shapes,
                                   ont_graph=ontology, inference="rdfs")
    assert conforms, report

