import os
import stat

import networkx as nx
import pytest

from kg.export.files import atomic_open, graph_path, read_graph, write_node_link


def test_atomic_open_leaves_nothing_when_interrupted(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_open(target) as handle:
        handle.write("partial")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_atomic_open_writes_ordinary_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        with atomic_open(tmp_path / "f.txt") as handle:
            handle.write("x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f.txt").stat().st_mode) == 0o644


def test_read_graph_round_trips_node_link(tmp_path):
    graph = nx.MultiDiGraph()
    graph.add_node("entity:a", label="Method", name="A", aliases=["a1"])
    graph.add_edge("entity:a", "entity:b", key="USES", type="USES", support=1)
    write_node_link(graph, tmp_path / "graph.json")
    again = read_graph(tmp_path)
    assert dict(again.nodes(data=True))["entity:a"]["aliases"] == ["a1"]
    assert list(again.edges(keys=True)) == [("entity:a", "entity:b", "USES")]


def test_graph_path_names_the_missing_build(tmp_path):
    with pytest.raises(FileNotFoundError, match="kg build"):
        graph_path(tmp_path)


def test_graphml_with_control_characters_is_well_formed_and_reads_back(tmp_path):
    import xml.etree.ElementTree as ET

    from kg.export.files import write_graphml

    g = nx.MultiDiGraph()
    g.add_node("paper:1\x07", label="Paper", name="Page\x0cbreak\x00 and bell\x07", abstract="tab\tnew\nline",
               authors=["A\x1bB", "C\ud800"])
    g.add_node("entity:x", label="Method", name="X\ufffe")
    g.add_edge("paper:1\x07", "entity:x", key="MENTIONS\x01", type="MENTIONS", mentions=[{"start": 0, "end": 1}])
    path = tmp_path / "graph.graphml"
    write_graphml(g, path)
    ET.parse(path)  # well-formed XML
    back = nx.read_graphml(path, force_multigraph=True)
    assert back.nodes["paper:1"]["label"] == "Pagebreak and bell"  # the display name, for Gephi
    assert back.nodes["paper:1"]["abstract"] == "tab\tnew\nline"  # allowed characters stay
    assert back.nodes["entity:x"]["label"] == "X"
    assert [(u, v) for u, v in back.edges()] == [("paper:1", "entity:x")]


def test_process_dirs_of_processes_that_are_gone_are_removed(tmp_path):
    import subprocess
    import sys

    from kg.export.files import process_dir

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan = tmp_path / f".tmp-{dead.pid}-abc"
    orphan.mkdir()
    (orphan / "half-written").write_text("x")
    others = [tmp_path / ".tmp-notapid-x", tmp_path / "other-1-x", tmp_path / f".tmp-{os.getpid()}-live"]
    for path in others:
        path.mkdir()
    fresh = process_dir(tmp_path, ".tmp-")
    assert fresh.name.startswith(f".tmp-{os.getpid()}-") and stat.S_IMODE(fresh.stat().st_mode) == 0o700
    assert not orphan.exists() and all(path.exists() for path in others)


def _awkward_graph():
    """Values every writer must render as networkx does: markup, quotes, line breaks, empty
    strings, booleans, floats, None, nested lists, non-ASCII, a node without attributes."""
    g = nx.MultiDiGraph()
    g.add_node("paper:2", label="Paper", name='A & B <"C">', abstract="line\nbreak\ttab\r", year=2025,
               authors=["Zoë", "O'Neil"], doi=None, score=0.5, generic=True)
    g.add_node("entity:ü", label="Method", name="", aliases=[], proposed_by=["paper:2"])
    g.add_node("bare")
    g.add_edge("paper:2", "entity:ü", key="MENTIONS", type="MENTIONS", mentions=[{"start": 0, "end": 1}], count=1)
    g.add_edge("paper:2", "bare", key="X&Y", type="X&Y")
    g.add_edge("entity:ü", "paper:2", key="USES", type="USES", support=2, evidence=[{"paper": "p", "start": 1}])
    return g


@pytest.mark.parametrize("graph", [_awkward_graph(), nx.MultiDiGraph()], ids=["awkward", "empty"])
def test_streamed_writers_equal_networkx_writers(tmp_path, graph):
    """write_node_link and write_graphml stream: node-link JSON is what networkx writes of the sorted
    graph, and networkx reads back from the GraphML the graph as GraphML holds it."""
    import json

    from kg.export.files import to_graphml_graph, write_graphml

    write_node_link(graph, tmp_path / "graph.json")
    ordered = nx.MultiDiGraph()
    ordered.add_nodes_from(sorted(graph.nodes(data=True), key=lambda n: n[0]))
    ordered.add_edges_from(sorted(graph.edges(keys=True, data=True), key=lambda e: e[:3]))
    expected = json.dumps(nx.node_link_data(ordered, edges="edges"), ensure_ascii=False, indent=1)
    assert (tmp_path / "graph.json").read_text("utf-8") == expected

    write_graphml(graph, tmp_path / "graph.graphml")
    back = nx.read_graphml(tmp_path / "graph.graphml", force_multigraph=True)
    expected = to_graphml_graph(graph)
    assert list(back.nodes(data=True)) == list(expected.nodes(data=True))
    assert [(u, v, data) for u, v, data in back.edges(data=True)] == \
        [(u, v, {k: x for k, x in data.items() if k != "id"}) for u, v, data in expected.edges(data=True)]
    assert [k for _, _, k in back.edges(keys=True)] == [data["id"] for _, _, data in expected.edges(data=True)]
