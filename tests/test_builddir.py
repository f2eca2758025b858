"""kg.builddir: the one owner of a build directory's file names, of reading its graph, and of
atomic writes."""

from __future__ import annotations

import networkx as nx
import pytest

from kg import builddir
from kg.builddir import BuildDir, IncompleteBuildError


def test_build_dir_names_every_file_under_its_directory(tmp_path):
    build = BuildDir(tmp_path)
    assert [build.output(kind).name for kind in builddir.OUTPUT_FILES] == [
        "papers.jsonl", "manifest.jsonl", "graph.json", "graph.graphml", "graph.ttl", "results.csv"]
    assert (build.papers, build.manifest, build.summary) == (
        tmp_path / "papers.jsonl", tmp_path / "manifest.jsonl", tmp_path / "summary.json")
    assert (build.lock, build.extractions) == (tmp_path / ".kg-build.lock", tmp_path / ".kg-cache" / "extractions.sqlite")
    assert (build.page, build.map) == (tmp_path / "graph.html", tmp_path / "map")


def test_a_graph_file_given_for_its_build_names_the_files_beside_it(tmp_path):
    (tmp_path / "mine.json").write_text("{}", encoding="utf-8")
    build = BuildDir(tmp_path / "mine.json")
    assert build.directory == tmp_path
    assert build.graph_file() == tmp_path / "mine.json"
    assert build.page == tmp_path / "graph.html"


def test_the_files_of_a_build_are_all_named_by_build_dir(build_dir):
    """Nothing ``kg build`` (and the commands run on it since) leaves in a build directory is
    named anywhere but in kg.builddir."""
    known = {*builddir.OUTPUT_FILES.values(), builddir.SUMMARY_FILE, builddir.LOCK_FILE, builddir.CACHE_DIR,
             builddir.STORE_CACHE_DIR, builddir.PAGE_FILE, builddir.MAP_DIR}
    found = {path.name for path in build_dir.iterdir()}
    assert set(builddir.OUTPUT_FILES.values()) | {builddir.SUMMARY_FILE} <= found
    assert found - known == set()


@pytest.mark.parametrize("mark", builddir.BUILD_MARKS)
def test_a_build_that_did_not_finish_is_incomplete(tmp_path, mark):
    (tmp_path / mark).write_text("", encoding="utf-8")
    (tmp_path / "graph.json").write_text("{}", encoding="utf-8")
    build = BuildDir(tmp_path)
    assert build.incomplete()
    with pytest.raises(IncompleteBuildError, match="holds no complete kg build"):
        build.check_complete()
    (tmp_path / "summary.json").write_text("{}", encoding="utf-8")
    assert not build.incomplete()
    build.check_complete()


def test_a_graph_json_made_another_way_is_no_build_at_all(tmp_path):
    (tmp_path / "graph.json").write_text("{}", encoding="utf-8")
    assert not BuildDir(tmp_path).incomplete()
    assert not BuildDir(tmp_path / "nothing").incomplete()


def test_read_graph_reads_the_node_link_graph_a_build_writes(tmp_path):
    from kg.export.files import write_node_link

    graph = nx.MultiDiGraph()
    graph.add_node("entity:a", label="Method", name="A")
    graph.add_edge("entity:a", "entity:a", key="USES", type="USES", support=1)
    write_node_link(graph, BuildDir(tmp_path).output("node_link"))
    again = BuildDir(tmp_path).read_graph()
    assert list(again.nodes(data=True)) == [("entity:a", {"label": "Method", "name": "A"})]
    assert list(again.edges(keys=True)) == [("entity:a", "entity:a", "USES")]


def test_missing_graph_says_how_to_make_one(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"graph\.json: no graph here \(run `kg build INPUTS -o BUILD_DIR` first\)"):
        BuildDir(tmp_path).read_graph()


def test_rdf_file_is_the_builds_turtle_or_the_file_given(tmp_path):
    assert BuildDir(tmp_path).rdf_file() == tmp_path / "graph.ttl"
    (tmp_path / "other.nt").write_text("", encoding="utf-8")
    assert BuildDir(tmp_path / "other.nt").rdf_file() == tmp_path / "other.nt"


def test_open_writes_into_the_directory_atomically(tmp_path):
    build = BuildDir(tmp_path)
    with pytest.raises(RuntimeError), build.open("summary.json") as handle:
        handle.write("{half")
        raise RuntimeError("stopped")
    assert list(tmp_path.iterdir()) == []
    with build.open("summary.json") as handle:
        handle.write("{}")
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]
