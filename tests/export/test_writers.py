"""The writer registry (kg.export.writers) and ``kg export file``, which writes any of its formats."""

import json

import networkx as nx
import pytest
import rdflib
from click.testing import CliRunner

from kg.builddir import OUTPUT_FILES, BuildDir
from kg.cli import main
from kg.export.writers import BUILD_FORMATS, RDF_FORMATS, WRITERS, describe_formats, write_graph, writer_for


@pytest.mark.parametrize("path, name", [
    ("out/graph.json", "node_link"), ("graph.graphml", "graphml"), ("graph.ttl", "turtle"), ("g.nt", "ntriples"),
    ("g.jsonld", "jsonld"), ("map/graph.gexf", "gexf"), ("out/results.csv", "results"), ("scores.csv", "results"),
    ("GRAPH.TTL", "turtle"),
])
def test_a_path_gives_its_format_by_suffix(path, name):
    assert writer_for(path=path).name == name


def test_a_name_gives_its_format_and_wins_over_the_suffix():
    assert all(writer_for(name).name == name for name in WRITERS)
    assert writer_for("ntriples", "graph.ttl").name == "ntriples"


def test_an_unknown_format_or_suffix_is_a_value_error_listing_the_formats():
    listing = ("node_link (.json), graphml (.graphml), turtle (.ttl), ntriples (.nt), jsonld (.jsonld), "
               "gexf (.gexf), results (results.csv, .csv)")
    with pytest.raises(ValueError) as error:
        writer_for("xlsx")
    assert str(error.value) == f"unknown format 'xlsx': known formats are {listing}"
    with pytest.raises(ValueError) as error:
        writer_for(path="out/graph.xlsx")
    assert str(error.value) == f"no format for graph.xlsx: known formats are {listing}"
    with pytest.raises(ValueError, match="give a format or a path"):
        writer_for()


def test_among_the_rdf_formats_json_is_json_ld_and_other_formats_are_unknown():
    assert writer_for(path="graph.json").name == "node_link"
    assert writer_for(path="graph.json", among=RDF_FORMATS).name == "jsonld"
    assert writer_for(path="graph.JSONLD", among=RDF_FORMATS).name == "jsonld"
    with pytest.raises(ValueError) as error:
        writer_for("gexf", among=RDF_FORMATS)
    assert str(error.value) == "unknown format 'gexf': known formats are turtle (.ttl), ntriples (.nt), jsonld (.jsonld, .json)"
    with pytest.raises(ValueError, match="no format for graph.graphml"):
        writer_for(path="graph.graphml", among=iter(RDF_FORMATS))  # any iterable, read once
    assert describe_formats(RDF_FORMATS) == "turtle (.ttl), ntriples (.nt), jsonld (.jsonld, .json)"


def test_the_build_writes_the_registered_formats_of_its_output_files():
    assert BUILD_FORMATS == ("node_link", "graphml", "turtle", "results")
    assert all(writer_for(path=OUTPUT_FILES[kind]).name == kind for kind in BUILD_FORMATS)


def test_write_graph_takes_only_the_writers_options(tmp_path, small_build):
    _, graph = small_build
    assert write_graph(graph, tmp_path / "g.nt", base="https://example.org/").name == "ntriples"
    assert "<https://example.org/entity/" in (tmp_path / "g.nt").read_text("utf-8")
    with pytest.raises(TypeError, match=r"the graphml writer takes no option base \(its options: none\)"):
        write_graph(graph, tmp_path / "g.graphml", base="https://example.org/")
    assert not (tmp_path / "g.graphml").exists()


def test_export_file_writes_the_builds_files_byte_for_byte(tmp_path, small_build):
    out, _ = small_build
    for kind in BUILD_FORMATS:
        target = tmp_path / OUTPUT_FILES[kind]
        result = CliRunner().invoke(main, ["export", "file", str(out), "-o", str(target)])
        assert result.exit_code == 0, result.output
        assert result.output == f"wrote {target} ({kind})\n"
        assert target.read_bytes() == (BuildDir(out).output(kind)).read_bytes(), kind


def test_export_file_gexf_reads_back_with_networkx(tmp_path, small_build):
    out, graph = small_build
    target = tmp_path / "graph.gexf"
    result = CliRunner().invoke(main, ["export", "file", str(out), "-o", str(target), "-q"])
    assert result.exit_code == 0 and result.output == "", result.output
    back = nx.read_gexf(target)
    assert set(back.nodes) == set(graph.nodes)
    assert {"Zorbnet", "Quorbit", "MNIST"} <= {data["label"] for _, data in back.nodes(data=True)}
    assert {data["type"] for _, data in back.nodes(data=True)} == {data["label"] for _, data in graph.nodes(data=True)}


def test_export_file_ntriples_parses_with_rdflib_to_the_rdf_of_the_graph(tmp_path, small_build):
    from kg.export.rdf import to_rdf

    out, graph = small_build
    target = tmp_path / "graph.txt"  # no suffix of a format: --format says it
    result = CliRunner().invoke(main, ["export", "file", str(out), "-o", str(target), "--format", "ntriples"])
    assert result.exit_code == 0, result.output
    parsed = rdflib.Graph().parse(target, format="nt")
    assert set(parsed) == set(to_rdf(graph))
    labels = {str(o) for o in parsed.objects(predicate=rdflib.RDFS.label)}
    assert {"Zorbnet", "Quorbit", "MNIST"} <= labels


def test_export_file_fails_clearly_on_an_unknown_suffix_or_a_base_iri_for_a_format_without_one(tmp_path, small_build):
    out, _ = small_build
    result = CliRunner().invoke(main, ["export", "file", str(out), "-o", str(tmp_path / "graph.xyz")])
    assert result.exit_code == 2
    message = " ".join(result.output.split())  # click wraps the message
    assert "no format for graph.xyz: known formats are node_link (.json), graphml (.graphml)" in message
    assert "choose one with --format" in message and "Traceback" not in result.output
    assert not (tmp_path / "graph.xyz").exists()
    result = CliRunner().invoke(main, ["export", "file", str(out), "-o", str(tmp_path / "g.gexf"),
                                       "--base-iri", "https://example.org/"])
    assert result.exit_code == 2 and "the gexf format has no base IRI" in " ".join(result.output.split())
    assert not (tmp_path / "g.gexf").exists()


def test_export_rdf_keeps_turtle_for_a_suffix_of_no_rdf_format(tmp_path, small_build):
    out, _ = small_build
    for name, fmt in [("g.rdf", "turtle"), ("g.json", "jsonld")]:
        result = CliRunner().invoke(main, ["export", "rdf", str(out), "-o", str(tmp_path / name)])
        assert result.exit_code == 0 and result.output == f"wrote {tmp_path / name} ({fmt})\n", result.output
    rdflib.Graph().parse(tmp_path / "g.rdf", format="turtle")
    assert "@context" in json.loads((tmp_path / "g.json").read_text("utf-8"))


def test_every_writer_writes_a_store_as_it_writes_the_graph(tmp_path, small_build):
    from kg.graphstore import sorted_graph

    _, graph = small_build
    for name, writer in WRITERS.items():
        suffix = writer.suffixes[0].lstrip(".")
        writer.write(graph, tmp_path / f"graph.{suffix}")
        writer.write(sorted_graph(graph), tmp_path / f"store.{suffix}")  # read in order, as kg build's store
        assert (tmp_path / f"store.{suffix}").read_bytes() == (tmp_path / f"graph.{suffix}").read_bytes(), name
